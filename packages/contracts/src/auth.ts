import { z } from 'zod';
import { LABEL_MESSAGE, LABEL_PATTERN, TEXT_MESSAGE, TEXT_PATTERN } from './text.ts';

export const PASSWORD_MIN_LENGTH = 8;

export const EmailSchema = z.string().trim().toLowerCase().max(254).pipe(z.email());
// A lone surrogate would be hashed as U+FFFD: two different passwords would then be the same one.
export const PasswordSchema = z.string().min(PASSWORD_MIN_LENGTH).max(256).regex(TEXT_PATTERN, TEXT_MESSAGE);
const TokenSchema = z.string().trim().min(1).max(512).regex(LABEL_PATTERN, LABEL_MESSAGE);

export const CredentialsSchema = z.object({ email: EmailSchema, password: PasswordSchema });
export type Credentials = z.infer<typeof CredentialsSchema>;

export const EmailOnlySchema = z.object({ email: EmailSchema });
export const TokenOnlySchema = z.object({ token: TokenSchema });

/**
 * The short verification code: 8 characters from an alphabet without look-alikes (no 0/O, 1/I),
 * emailed as `ABCD-EFGH`. Typed codes may carry the dash, spaces and lower case.
 */
export const SHORT_CODE_LENGTH = 8;
export const SHORT_CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
/** Wrong tries a short code survives; the attempt after the last ends it (the link stays valid). */
export const SHORT_CODE_MAX_ATTEMPTS = 5;
const SHORT_CODE_PATTERN = new RegExp(`^[${SHORT_CODE_ALPHABET}]{${SHORT_CODE_LENGTH}}$`);
export const normalizeShortCode = (typed: string): string => typed.replace(/[\s-]/g, '').toUpperCase();
export const isShortCode = (typed: string): boolean => SHORT_CODE_PATTERN.test(normalizeShortCode(typed));
const ShortCodeSchema = z
  .string()
  .max(32)
  .transform(normalizeShortCode)
  .pipe(z.string().regex(SHORT_CODE_PATTERN, 'Must be the 8-character code from the email.'));

/** `POST /register/verify`: the emailed link's token, or the account's email with the short code. */
export const EmailCodeSchema = z.object({ email: EmailSchema, code: ShortCodeSchema });
export type EmailCode = z.infer<typeof EmailCodeSchema>;
export const VerifyEmailSchema = z.union([TokenOnlySchema.strict(), EmailCodeSchema.strict()]);
export type VerifyEmail = z.infer<typeof VerifyEmailSchema>;
export const ResetPasswordSchema = z.object({
  token: TokenSchema,
  newPassword: PasswordSchema,
});

/** Answer of `POST /login` and `POST /register/verify`; stored by the console under PF_USER. */
export const SessionSchema = z.object({
  token: z.string(),
  email: z.string(),
  validUntil: z.string(),
});
export type Session = z.infer<typeof SessionSchema>;
