import { useMutation } from '@tanstack/react-query';
import { type ApiError, apiRequest } from '../../../lib/api-client';

/** Answers 204 whatever the email, so the screen cannot reveal which accounts exist. */
export function requestPasswordReset(email: string): Promise<void> {
  return apiRequest('/forgot-password', { method: 'POST', body: { email } });
}

export function useRequestPasswordReset() {
  return useMutation<void, ApiError, string>({ mutationFn: requestPasswordReset });
}
