import { type Session, SessionSchema, type VerifyEmail } from '@polyflow/contracts/auth';
import { useMutation } from '@tanstack/react-query';
import { type ApiError, apiRequest } from '../../../lib/api-client';

/**
 * The link's token as the user gave it (spec §5), or the account's email with the short code from the
 * same email; a successful verify also returns a session.
 */
export function verifyEmail(body: VerifyEmail): Promise<Session> {
  return apiRequest('/register/verify', { method: 'POST', body, schema: SessionSchema });
}

export function useVerifyEmail() {
  return useMutation<Session, ApiError, VerifyEmail>({ mutationFn: verifyEmail });
}
