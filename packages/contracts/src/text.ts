import { z } from 'zod';

/**
 * What the stores can hold. A lone UTF-16 surrogate has no UTF-8 form: DuckDB refuses it, SQLite and
 * PostgreSQL would store U+FFFD instead (a silent rewrite). PostgreSQL text cannot hold NUL at all, and
 * an identifier (a user id, a project name, a UTM value) has no use for any control character. Such
 * text is refused with a 400 that names the field, never cleaned up; only the text a page or a wallet
 * wrote (error messages and stacks, a wallet's name) is cleaned at ingestion (`storableText`, ADR 169).
 *
 * Both patterns use the `u` flag: with it `\p{Cs}` matches only a surrogate that is not half of a
 * pair, so emoji pass. The ingestion validator compiles them (server `lib/compile-json-schema.ts`).
 */

/** No control character (C0, DEL, C1; tab and newline included) and no lone surrogate. */
export const LABEL_PATTERN = /^[^\p{Cc}\p{Cs}]*$/u;
/** Free text (messages, stacks, titles): line breaks and tabs are fine, other controls and lone surrogates are not. */
// Written as runs between line breaks (no alternation per character): linear and quick on a 16 KB stack.
export const TEXT_PATTERN = /^[^\p{Cc}\p{Cs}]*(?:[\t\n\r][^\p{Cc}\p{Cs}]*)*$/u;

export const LABEL_MESSAGE = 'must not contain control characters or unpaired UTF-16 surrogates';
export const TEXT_MESSAGE =
  'must not contain NUL or other control characters (except tab and line breaks), or unpaired UTF-16 surrogates';

/** A single-line identifier or name of at most `max` characters. */
export const labelText = (max: number) => z.string().max(max).regex(LABEL_PATTERN, LABEL_MESSAGE);
/** Free text of at most `max` characters. */
export const freeText = (max: number) => z.string().max(max).regex(TEXT_PATTERN, TEXT_MESSAGE);

/**
 * The same answers as `LABEL_PATTERN.test` (`allowBreaks` false) and `TEXT_PATTERN.test` (true) in one
 * pass over the UTF-16 units, without the regular expression engine: the ingestion validator's hot path
 * uses it (a third of the cost on a batch of twenty events). The server's tests hold both to the same answers.
 */
export function isStorableText(text: string, allowBreaks: boolean): boolean {
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x20) {
      if (allowBreaks && (code === 0x09 || code === 0x0a || code === 0x0d)) continue;
      return false;
    }
    if (code < 0x7f) continue;
    if (code <= 0x9f) return false;
    if ((code & 0xf800) !== 0xd800) continue;
    // A high surrogate followed by a low one is a pair; any other surrogate stands alone.
    if (code > 0xdbff || (text.charCodeAt(index + 1) & 0xfc00) !== 0xdc00) return false;
    index++;
  }
  return true;
}

/**
 * `text` with each unit `isStorableText` refuses (a control character, a lone surrogate) replaced by U+FFFD;
 * the same string when there is none. For the text a page or a wallet wrote, which the SDK passes on as it
 * is (error messages and stacks, a wallet's name): ingestion cleans it rather than refuse the batch that
 * carries it (ADR 169).
 */
export function storableText(text: string, allowBreaks: boolean): string {
  if (isStorableText(text, allowBreaks)) return text;
  let out = '';
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    const isBreak = code === 0x09 || code === 0x0a || code === 0x0d;
    if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) {
      out += allowBreaks && isBreak ? text[index] : '\ufffd';
    } else if ((code & 0xf800) !== 0xd800) {
      out += text[index];
    } else if (code <= 0xdbff && (text.charCodeAt(index + 1) & 0xfc00) === 0xdc00) {
      out += text.slice(index, index + 2);
      index++;
    } else {
      out += '\ufffd';
    }
  }
  return out;
}
