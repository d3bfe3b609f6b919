import { createHash } from 'node:crypto';
import { INCIDENT_SOURCES } from '../event-store/domain.ts';

/**
 * How error events group into incidents. Pure functions: the ingestion path stores each error event's
 * incident id (column `incident_id`), so grouping is a plain GROUP BY at query time.
 * Rules: docs/acquisition-and-incidents.md, "Fingerprint".
 */

export type FingerprintInput = {
  source: string;
  message: string;
  stack?: string | null;
  code?: number | null;
  method?: string | null;
  /**
   * The top frame mapped through the release's source maps (`src/send.ts:sendTokens`), when a map covers
   * it: it replaces the minified top frame, so two builds of the same code group together (ADR 066).
   */
  originalTopFrame?: string | null;
};

const MAX_NORMALISED_LENGTH = 300;

/** Order matters: URLs and quoted text go first so the numbers and hex inside them do not leave traces. */
const MESSAGE_RULES: [RegExp, string][] = [
  // Chrome prefixes uncaught errors; the same throw reported as a rejection has no prefix.
  [/^\s*uncaught\s+(?:\(in promise\)\s*)?/i, ''],
  [/\b[a-z][a-z0-9+.-]*:\/\/[^\s'"`<>()]+/gi, '<url>'],
  [/"[^"\n]*"|`[^`\n]*`|(?<![\w])'[^'\n]*'(?![\w])/g, '<str>'],
  [/\b0x[0-9a-f]{40}\b/gi, '<address>'],
  [/\b0x[0-9a-f]*/gi, '<hex>'],
  [/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '<id>'],
  // Bare hashes and ids (at least one digit, so plain words like "deadbeef" stay).
  [/\b(?=[0-9a-f]*\d)[0-9a-f]{16,}\b/gi, '<hex>'],
  [/(?<![\w])\d+(?:[.,]\d+)*(?!\d)/g, '<n>'],
  [/\s+/g, ' '],
];

/** The message without what varies between occurrences of the same fault. */
export function normaliseMessage(message: string): string {
  let text = message;
  for (const [pattern, replacement] of MESSAGE_RULES) text = text.replace(pattern, replacement);
  return text.trim().slice(0, MAX_NORMALISED_LENGTH);
}

// V8: "    at fn (https://x/app.js:1:2)", "    at https://x/app.js:1:2", "    at async Foo.bar (file.js:3:4)".
const V8_FRAME = /^\s*at\s+(?:(.*?)\s+\()?(.+?)(?::\d+)?(?::\d+)?\)?\s*$/;
// Firefox and Safari: "fn@https://x/app.js:1:2", "@https://x/app.js:1:2".
const GECKO_FRAME = /^\s*([^@\s]*)@(.+?)(?::\d+)?(?::\d+)?\s*$/;

/** A bundle file's content hash (`index-D8dJ0v3k.js`, `main.3f2a9b1c.js`) changes on every deploy. */
const BUNDLE_HASH = /[.-](?=[A-Za-z0-9_]*\d)[A-Za-z0-9_]{6,}(?=\.(?:m?js|cjs|jsx?|tsx?)$)/;

function fileOf(location: string): string {
  let file = location.trim();
  try {
    // Keep the path only: the same bundle is served from staging and production hosts.
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(file)) file = new URL(file).pathname;
  } catch {
    // Not a URL after all ("<anonymous>", "native"): keep the text.
  }
  file = file.replace(/[?#].*$/, '');
  return file.replace(BUNDLE_HASH, '') || '<unknown>';
}

function functionOf(name: string | undefined): string {
  const cleaned = (name ?? '')
    .replace(/^(?:async|new)\s+/, '')
    .replace(/\s+\[as [^\]]+\]$/, '')
    .trim();
  return cleaned || '<anonymous>';
}

/** The top stack frame as `file:function`, without line and column; null when no line parses as a frame. */
export function topFrame(stack: string | null | undefined): string | null {
  if (!stack) return null;
  for (const line of stack.split('\n')) {
    const v8 = /^\s*at\s/.test(line) ? V8_FRAME.exec(line) : null;
    if (v8?.[2]) return `${fileOf(v8[2])}:${functionOf(v8[1])}`;
    const gecko = v8 ? null : GECKO_FRAME.exec(line);
    if (gecko?.[2] && /[/:]/.test(gecko[2])) return `${fileOf(gecko[2])}:${functionOf(gecko[1])}`;
  }
  return null;
}

/**
 * The grouping key. Wallet errors with an RPC code group by code and method (their messages differ per
 * wallet and language); everything else by normalised message and top frame. The source is part of the
 * key: an uncaught error and a rejection are different incident types.
 */
export function fingerprintOf(input: FingerprintInput): string {
  if (input.source === 'wallet' && input.code != null) {
    return ['wallet', `code=${input.code}`, `method=${input.method ?? '?'}`].join('|');
  }
  const frame = input.originalTopFrame ?? topFrame(input.stack);
  const parts = [input.source, normaliseMessage(input.message), frame ?? ''];
  if (input.source === 'wallet') parts.push(`method=${input.method ?? '?'}`);
  return parts.join('|');
}

/**
 * The incident id, stored with each error event and shown by the API: stable, derived from the project and
 * the fingerprint (so two projects with the same fault do not share an id).
 */
export function incidentIdOf(projectId: string, fingerprint: string): string {
  return `inc_${createHash('sha256').update(`${projectId}\u0000${fingerprint}`).digest('hex').slice(0, 24)}`;
}

export const INCIDENT_ID_PATTERN = /^inc_[0-9a-f]{24}$/;

/**
 * The incident of an error event with these fields, or null when its source is not the dapp's. Ingestion
 * stores it with each error event, so that incidents are a plain GROUP BY at query time.
 */
export function incidentIdOfError(projectId: string, error: FingerprintInput): string | null {
  if (!(INCIDENT_SOURCES as readonly string[]).includes(error.source)) return null;
  return incidentIdOf(projectId, fingerprintOf(error));
}
