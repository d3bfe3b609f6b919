import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Emails in the outbox hold verification and reset codes, which the database otherwise keeps only as
 * hashes: they are stored encrypted (AES-256-GCM) with a key derived from the JWT secret, so that a
 * copy of the database alone does not give them away.
 */
export function createSealer(secret: string) {
  const key = Buffer.from(hkdfSync('sha256', secret, 'polyflow', 'mail-outbox', 32));
  return {
    seal(plain: string): string {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
    },
    /** Throws when the text was sealed with another secret or altered. */
    open(sealed: string): string {
      const bytes = Buffer.from(sealed, 'base64url');
      const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, 12));
      decipher.setAuthTag(bytes.subarray(12, 28));
      return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
    },
  };
}
