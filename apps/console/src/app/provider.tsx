import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, useEffect, useState } from 'react';
import { isApiError } from '../lib/api-client';
import { getActiveSession } from '../lib/session';
import { subscribeToStorage } from '../lib/storage';

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // A 4xx will not change on retry; a dropped connection might.
        retry: (failureCount, error) => failureCount < 2 && !(isApiError(error) && error.status >= 400),
        refetchOnWindowFocus: false,
        staleTime: 30_000,
      },
      mutations: { retry: false },
    },
  });
}

/** Cached data belongs to one user: drop it when the session ends (logout, 401, another tab). */
function useClearCacheOnLogout(queryClient: QueryClient) {
  useEffect(() => {
    let hadSession = getActiveSession() !== null;
    return subscribeToStorage(() => {
      const hasSession = getActiveSession() !== null;
      if (hadSession && !hasSession) queryClient.clear();
      hadSession = hasSession;
    });
  }, [queryClient]);
}

export function AppProvider({ children, queryClient }: { children: ReactNode; queryClient?: QueryClient }) {
  const [client] = useState(() => queryClient ?? createQueryClient());
  useClearCacheOnLogout(client);
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
