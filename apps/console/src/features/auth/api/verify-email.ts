import { type Session, SessionSchema } from '@polyflow/contracts/auth';
import { useMutation } from '@tanstack/react-query';
import { type ApiError, apiRequest } from '../../../lib/api-client';

/** The token is sent as the user gave it (spec §5); a successful verify also returns a session. */
export function verifyEmail(token: string): Promise<Session> {
  return apiRequest('/register/verify', { method: 'POST', body: { token }, schema: SessionSchema });
}

export function useVerifyEmail() {
  return useMutation<Session, ApiError, string>({ mutationFn: verifyEmail });
}
