import { type Algorithm, hash, verify } from '@node-rs/argon2';

// Algorithm.Argon2id; the enum is `const` in the typings, which isolatedModules cannot inline.
const ARGON2ID = 2 as Algorithm;

export type PasswordHasher = {
  hash(password: string): Promise<string>;
  /** Runs a full verification even for unknown emails (against a dummy hash) so timing reveals nothing. */
  verify(passwordHash: string | undefined, password: string): Promise<boolean>;
};

/** Argon2id with the library's defaults (19 MiB, 2 passes): ~tens of ms per hash. */
export function createPasswordHasher(): PasswordHasher {
  const hashPassword = (password: string) => hash(password, { algorithm: ARGON2ID });
  // Computed up front so that even the first unknown-email login takes as long as a real one.
  const dummyHash = hashPassword('polyflow-dummy-password');
  dummyHash.catch(() => undefined);
  return {
    hash: hashPassword,
    async verify(passwordHash, password) {
      if (!passwordHash) {
        await verify(await dummyHash, password).catch(() => false);
        return false;
      }
      return verify(passwordHash, password).catch(() => false);
    },
  };
}
