import { type Credentials, type Session, SessionSchema } from '@polyflow/contracts/auth';
import { useMutation } from '@tanstack/react-query';
import { type ApiError, apiRequest } from '../../../lib/api-client';

export function login(credentials: Credentials): Promise<Session> {
  return apiRequest('/login', { method: 'POST', body: credentials, schema: SessionSchema });
}

export function useLogin() {
  return useMutation<Session, ApiError, Credentials>({ mutationFn: login });
}
