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
