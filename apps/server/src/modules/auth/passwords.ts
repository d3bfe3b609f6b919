import type { Algorithm } from '@node-rs/argon2';

// Algorithm.Argon2id; the enum is `const` in the typings, which isolatedModules cannot inline.
const ARGON2ID = 2 as Algorithm;

/**
 * An Argon2id hash with the library's default cost (m=19456 KiB, t=2, p=1) of a password nobody has:
 * unknown emails are verified against it, so that their login takes as long as a real one. A constant
 * rather than hashed at start-up: that hash is 19 MiB of work memory an idle server would keep (issue 33);
 * `test/auth/passwords.test.ts` checks that its cost is still the one `hash` uses.
 */
export const DUMMY_PASSWORD_HASH =
  '$argon2id$v=19$m=19456,t=2,p=1$vUAEqyyjY9lONHHPciHumg$uctGyIJky/74vD0bsV3Hva/bOBBYK9V3/OqozzOG/Mc';

export type PasswordHasher = {
  hash(password: string): Promise<string>;
  /** Runs a full verification even for unknown emails (against a dummy hash) so timing reveals nothing. */
  verify(passwordHash: string | undefined, password: string): Promise<boolean>;
};

/**
 * Argon2id with the library's defaults (19 MiB, 2 passes): ~tens of ms per hash. The native library is
 * loaded on the first sign-up or login, not at start-up (an idle server does not map it).
 */
export function createPasswordHasher(): PasswordHasher {
  let argon2: Promise<typeof import('@node-rs/argon2')> | undefined;
  const library = () => {
    argon2 ??= import('@node-rs/argon2');
    return argon2;
  };
  return {
    async hash(password) {
      return (await library()).hash(password, { algorithm: ARGON2ID });
    },
    async verify(passwordHash, password) {
      const { verify } = await library();
      if (!passwordHash) {
        await verify(DUMMY_PASSWORD_HASH, password).catch(() => false);
        return false;
      }
      return verify(passwordHash, password).catch(() => false);
    },
  };
}
