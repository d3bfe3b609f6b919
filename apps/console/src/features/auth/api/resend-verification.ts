import { useMutation } from '@tanstack/react-query';
import { type ApiError, apiRequest } from '../../../lib/api-client';

export function resendVerification(email: string): Promise<void> {
  return apiRequest('/register/resend', { method: 'POST', body: { email } });
}

export function useResendVerification() {
  return useMutation<void, ApiError, string>({ mutationFn: resendVerification });
}
