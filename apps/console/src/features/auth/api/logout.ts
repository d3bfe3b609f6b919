import { apiRequest } from '../../../lib/api-client';

/**
 * Ends the session on the server, so that a copy of its token stops working at once. The console
 * forgets the session whatever the answer (offline, already ended): call this, then clear it. The
 * token is read when called, before the request goes out.
 */
export function logout(): Promise<void> {
  return apiRequest('/logout', { method: 'POST', auth: true }).catch(() => undefined);
}
