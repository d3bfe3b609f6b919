import { timingSafeEqual } from 'node:crypto';

/** Whether an `Authorization` header is `Bearer <token>`, compared in constant time. */
export function hasBearerToken(header: string | undefined, token: string): boolean {
  const given = Buffer.from(/^Bearer (.+)$/.exec(header ?? '')?.[1] ?? '');
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
