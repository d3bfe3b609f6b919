import { PASSWORD_MIN_LENGTH } from '@polyflow/contracts/auth';
import { z } from 'zod';

export const emailField = z
  .string()
  .trim()
  .min(1, 'Email is required')
  .pipe(z.email('Enter a valid email address'));
export const passwordField = z
  .string()
  .min(1, 'Password is required')
  .min(PASSWORD_MIN_LENGTH, `Use at least ${PASSWORD_MIN_LENGTH} characters`);

/** Spec §5: email required and well formed, password required with at least 8 characters. */
export const CredentialsFormSchema = z.object({ email: emailField, password: passwordField });
export type CredentialsForm = z.infer<typeof CredentialsFormSchema>;
