import { createHash, randomBytes } from 'node:crypto';
import { v7 } from 'uuid';

/**
 * A new row's id: a UUID of version 7 (RFC 9562), its time first and a counter within one millisecond, so
 * that ids made one after another sort in that order. Lists ordered by (created_at, id) then show what one
 * process created in the same millisecond (the demo seeder's goals and funnels) in the order it was made.
 */
export const newId = (): string => v7();

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const isId = (value: string): boolean => UUID_PATTERN.test(value);

/** 32 random bytes, URL-safe: the code sent in verification and reset emails. */
export const newEmailToken = (): string => randomBytes(32).toString('base64url');

/** 8 characters of a 32-letter alphabet (40 bits; 256 = 8 * 32, so no modulo bias). */
export function newShortCode(alphabet: string, length: number): string {
  let code = '';
  for (const byte of randomBytes(length)) code += alphabet[byte % alphabet.length];
  return code;
}

export const sha256 = (value: string): string => createHash('sha256').update(value).digest('hex');

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** `length` base62 characters, drawn without modulo bias. */
function base62(length: number): string {
  let text = '';
  while (text.length < length) {
    for (const byte of randomBytes(length + 16)) {
      // 248 = 4 * 62: bytes at or above it would favour the first characters.
      if (byte < 248 && text.length < length) text += BASE62[byte % 62];
    }
  }
  return text;
}

/** `pf_` + 32 base62 characters (~190 bits): a project's publishable API key. */
export const newApiKey = (): string => `pf_${base62(32)}`;

/** What every read token starts with: recognisable to secret scanners and to the session guard. */
export const READ_TOKEN_PREFIX = 'pfr_';

/** `pfr_` + 40 base62 characters (~238 bits): a project's secret read token, stored only hashed. */
export const newReadToken = (): string => `${READ_TOKEN_PREFIX}${base62(40)}`;

/** What every write token starts with (source-map uploads only; docs/source-maps.md). */
export const WRITE_TOKEN_PREFIX = 'pfw_';

/** `pfw_` + 40 base62 characters: a project's secret write token, stored only hashed. */
export const newWriteToken = (): string => `${WRITE_TOKEN_PREFIX}${base62(40)}`;
