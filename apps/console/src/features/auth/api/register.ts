import type { Credentials } from '@polyflow/contracts/auth';
import { useMutation } from '@tanstack/react-query';
import { type ApiError, apiRequest } from '../../../lib/api-client';

/** Answers 204 whether or not the email had an account, so the console always goes to verify. */
export function register(credentials: Credentials): Promise<void> {
  return apiRequest('/register', { method: 'POST', body: credentials });
}

export function useRegister() {
  return useMutation<void, ApiError, Credentials>({ mutationFn: register });
}
