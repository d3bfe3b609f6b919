import { describe, expect, it } from 'vitest';
import { createPasswordHasher, DUMMY_PASSWORD_HASH } from '../src/modules/auth/passwords.ts';

/** `$argon2id$v=19$m=19456,t=2,p=1$salt$hash` without its salt and hash: the algorithm and its cost. */
const costOf = (encoded: string) => encoded.split('$').slice(1, 4).join('$');

describe('password hashing (Argon2id)', () => {
  it('verifies unknown emails against a dummy hash of the same cost as a real one', async () => {
    const passwords = createPasswordHasher();
    const real = await passwords.hash('correct horse battery staple');
    expect(costOf(real)).toMatch(/^argon2id\$v=19\$m=\d+,t=\d+,p=\d+$/);
    expect(costOf(DUMMY_PASSWORD_HASH)).toBe(costOf(real));
  });

  it('accepts the right password and refuses a wrong one or an unknown email', async () => {
    const passwords = createPasswordHasher();
    const stored = await passwords.hash('correct horse battery staple');
    expect(await passwords.verify(stored, 'correct horse battery staple')).toBe(true);
    expect(await passwords.verify(stored, 'wrong')).toBe(false);
    expect(await passwords.verify(undefined, 'correct horse battery staple')).toBe(false);
    expect(await passwords.verify(undefined, 'polyflow-dummy-password')).toBe(false);
  });
});
