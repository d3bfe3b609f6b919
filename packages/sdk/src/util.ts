/** Helpers shared by the SDK modules. None of them may throw: the SDK never throws into the page. */

export type Rec = Record<string, unknown>;

export const now = (): number => Date.now();

export const noop = (): void => {};

/** Wraps a hook so that whatever goes wrong inside stays inside. */
export const safe =
  <A extends unknown[]>(fn: (...args: A) => unknown) =>
  (...args: A): void => {
    try {
      fn(...args);
    } catch {}
  };

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** A random id matching the contract's `[A-Za-z0-9_-]{8,64}`; time-prefixed so ids sort roughly by creation. */
export function uid(): string {
  // getRandomValues works in insecure contexts too (unlike randomUUID).
  return now().toString(36) + crypto.getRandomValues(new Uint32Array(3)).join('');
}

/** localStorage read; null or undefined when absent or storage is blocked (private modes, sandboxed iframes). */
export function load(key: string): string | null | undefined {
  try {
    return localStorage.getItem(key);
  } catch {}
}

/** localStorage write, or removal when `value` is undefined. */
export function store(key: string, value?: string): void {
  try {
    value === undefined ? localStorage.removeItem(key) : localStorage.setItem(key, value);
  } catch {}
}

/** Bounded text: the server rejects a whole batch when one field is too long, so we cut before sending. */
export const text = (value: unknown, max = 256): string => String(value ?? '').slice(0, max);

/** The contract's label text (`labelText`): no control character and no lone surrogate, 1 to `max` units. */
export const isLabel = (value: unknown, max = 64): value is string =>
  typeof value === 'string' && value.length <= max && /^[^\p{Cc}\p{Cs}]+$/u.test(value);

/** A hex quantity or decimal (string, number or bigint) as the decimal string the wire format wants. */
export function dec(value: unknown): string | undefined {
  // BigInt throws on null, undefined and non-numeric text; '' would be 0.
  try {
    const n = BigInt(value as string);
    if (value !== '' && n >= 0n) return `${n}`;
  } catch {}
}

/** 0x-hex of exactly `length` characters (addresses 42, hashes 66), lower-cased; otherwise undefined. */
export const hex = (value: unknown, length: number): string | undefined =>
  typeof value === 'string' && value.length === length && /^0x[\da-f]*$/i.test(value)
    ? value.toLowerCase()
    : undefined;

/** Chain ids arrive as hex strings (`0x1`) or numbers. */
export function num(value: unknown): number | undefined {
  const n = Number(value);
  return n > 0 && Number.isSafeInteger(n) ? n : undefined;
}

/** The EIP-1193 error code, when there is one (4001 = the user said no). */
export const code = (error: unknown): number | undefined => {
  const c = (error as Rec | null)?.code;
  return Number.isInteger(c) ? (c as number) : undefined;
};

/**
 * The error's message; a wallet that wraps a node's error (MetaMask: -32603 "Internal JSON-RPC error.") keeps
 * the node's own message, e.g. the revert reason, in `data.message`, and that is the one worth reading.
 */
export const errorText = (error: unknown): string => {
  const e = error as Rec | null;
  return text((e?.data as Rec | null)?.message ?? e?.message ?? error, 2000);
};

/** An RPC error as the wire format wants it: code and message, nothing else from the wallet. */
export const rpcError = (error: unknown) => ({ code: code(error), message: errorText(error) });

/** Cleanups run by `detach()`, in any order. */
export type Undo = (() => unknown)[];

/** addEventListener that registers its own removal. */
export function listen(
  undo: Undo,
  type: string,
  listener: (event: never) => void,
  target: EventTarget = window,
): void {
  target.addEventListener(type, listener as EventListener);
  undo.push(() => target.removeEventListener(type, listener as EventListener));
}
