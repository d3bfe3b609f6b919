import { useMutation } from '@tanstack/react-query';
import { type ApiError, apiRequest } from '../../../lib/api-client';

interface ResetPasswordInput {
  token: string;
  newPassword: string;
}

export function resetPassword(input: ResetPasswordInput): Promise<void> {
  return apiRequest('/forgot-password/reset', { method: 'POST', body: input });
}

export function useResetPassword() {
  return useMutation<void, ApiError, ResetPasswordInput>({ mutationFn: resetPassword });
}
