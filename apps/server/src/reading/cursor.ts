import { InputError } from './input-error.ts';

/** Where a transaction-history page ended: the last row's request time and id (rows sort by both, newest first). */
export type HistoryCursor = { timeMs: number; id: string };

/** Opaque to clients: base64url of `[timeMs, id]`. */
export function encodeCursor(cursor: HistoryCursor): string {
  return Buffer.from(JSON.stringify([cursor.timeMs, cursor.id])).toString('base64url');
}

export function decodeCursor(text: string): HistoryCursor {
  const invalid = () => new InputError('Invalid cursor: pass the nextCursor of a previous page unchanged.');
  if (text.length > 200 || !/^[A-Za-z0-9_-]+$/.test(text)) throw invalid();
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (
    !Array.isArray(value) ||
    value.length !== 2 ||
    !Number.isSafeInteger(value[0]) ||
    typeof value[1] !== 'string' ||
    value[1].length === 0 ||
    value[1].length > 64
  ) {
    throw invalid();
  }
  return { timeMs: value[0] as number, id: value[1] };
}
