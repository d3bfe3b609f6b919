import { z } from 'zod';

export const PASSWORD_MIN_LENGTH = 8;

export const EmailSchema = z.string().trim().toLowerCase().max(254).pipe(z.email());
export const PasswordSchema = z.string().min(PASSWORD_MIN_LENGTH).max(256);

export const CredentialsSchema = z.object({ email: EmailSchema, password: PasswordSchema });
export type Credentials = z.infer<typeof CredentialsSchema>;

export const EmailOnlySchema = z.object({ email: EmailSchema });
export const TokenOnlySchema = z.object({ token: z.string().trim().min(1).max(512) });
export const ResetPasswordSchema = z.object({
  token: z.string().trim().min(1).max(512),
  newPassword: PasswordSchema,
});

/** Answer of `POST /login` and `POST /register/verify`; stored by the console under PF_USER. */
export const SessionSchema = z.object({
  token: z.string(),
  email: z.string(),
  validUntil: z.string(),
});
export type Session = z.infer<typeof SessionSchema>;
