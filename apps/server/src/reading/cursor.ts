import { InputError } from './input-error.ts';

/** Where a transaction-history page ended: the last row's request time and id (rows sort by both, newest first). */
export type HistoryCursor = { timeMs: number; id: string };

/** A cursor's parts as clients carry it: base64url of their JSON array, opaque to them. */
export function encodeCursorParts(parts: readonly (string | number)[]): string {
  return Buffer.from(JSON.stringify(parts)).toString('base64url');
}

/**
 * A cursor's parts back, or `invalid`'s error for text that is not one (too long, not base64url, not a JSON
 * array of `length` items); each caller then checks its items' kinds and ranges.
 */
export function decodeCursorParts(
  text: string,
  length: number,
  maxChars: number,
  invalid: () => InputError,
): unknown[] {
  if (text.length > maxChars || !/^[A-Za-z0-9_-]+$/.test(text)) throw invalid();
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (!Array.isArray(value) || value.length !== length) throw invalid();
  return value;
}

/** Opaque to clients: base64url of `[timeMs, id]`. */
export function encodeCursor(cursor: HistoryCursor): string {
  return encodeCursorParts([cursor.timeMs, cursor.id]);
}

export function decodeCursor(text: string): HistoryCursor {
  const invalid = () => new InputError('Invalid cursor: pass the nextCursor of a previous page unchanged.');
  const value = decodeCursorParts(text, 2, 200, invalid);
  if (
    !Number.isSafeInteger(value[0]) ||
    typeof value[1] !== 'string' ||
    value[1].length === 0 ||
    value[1].length > 64
  ) {
    throw invalid();
  }
  return { timeMs: value[0] as number, id: value[1] };
}
