import { DEFAULT_IGNORED_WALLET_CODES } from '@polyflow/contracts/projects';

/**
 * Wallet noise (ADR 067): an error event whose wallet code is on the project's ignored list (default 4001,
 * the user's refusal) is stored like any event but gets no incident id, so it is no incident's occurrence.
 * Decided at ingestion, when incident ids are assigned: a change of the list applies to new events only.
 * Rules: docs/acquisition-and-incidents.md, "What is an incident".
 */

export type WalletNoiseInput = {
  source: string;
  message: string;
  stack?: string | null;
  code?: number | null;
};

/** An RPC code written out in an error's text: `code: 4001`, `"code":4001`, `code=-32002`. */
const WRITTEN_CODE = /\bcode["']?\s*[:=]\s*(-?\d{1,10})\b/i;
/** How wallets and libraries word the user's refusal (MetaMask, EIP-1193, ethers' ACTION_REJECTED). */
const REFUSAL_TEXT = /\buser (?:rejected|denied)\b|\bACTION_REJECTED\b/i;
const REFUSAL_CODE = 4001;

/**
 * The wallet code of an error, for the ignore rule. An event with a code field (any client of
 * `POST /api/v1/events`) answers that code. The published 1.0.25 SDK sends no code (its error events are
 * stored as `window` errors with the texts the page saw): its code is the one written in the text, else
 * 4001 when the text words the user's refusal. Any other error without a code has none.
 */
export function walletCodeOf(error: WalletNoiseInput, options: { legacy: boolean }): number | null {
  if (error.code != null) return error.code;
  if (!options.legacy) return null;
  const text = `${error.message}\n${error.stack ?? ''}`;
  const written = WRITTEN_CODE.exec(text)?.[1];
  if (written !== undefined) return Number(written);
  return REFUSAL_TEXT.test(text) ? REFUSAL_CODE : null;
}

/** Whether the error is wallet noise for a project that ignores `ignoredCodes`. */
export function isIgnoredWalletError(
  error: WalletNoiseInput,
  ignoredCodes: readonly number[] = DEFAULT_IGNORED_WALLET_CODES,
  options: { legacy: boolean } = { legacy: false },
): boolean {
  if (ignoredCodes.length === 0) return false;
  const code = walletCodeOf(error, options);
  return code !== null && ignoredCodes.includes(code);
}
