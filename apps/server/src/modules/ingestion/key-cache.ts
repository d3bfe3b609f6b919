export type KeyProject = { id: string; whitelistedDomains: string[] };

export type KeyCacheDeps = {
  findProjectByApiKey(apiKey: string): Promise<KeyProject | null>;
  onProjectChanged(listener: (projectId: string) => void): () => void;
};

const MAX_ENTRIES = 10_000;
/** A safety net only: changes made in this process invalidate at once through `onProjectChanged`. */
const TTL_MS = 60_000;

/**
 * API key → project, in memory, so ingestion does not query the account store per request. Unknown keys
 * are cached too (a misconfigured dapp retries a lot). Any project change empties the cache, so a
 * replaced or revoked key fails with the very next request.
 */
export function createKeyCache(deps: KeyCacheDeps) {
  const entries = new Map<string, { project: KeyProject | null; expiresAt: number }>();
  // A lookup that started before a change must not put its stale answer back after the change.
  let generation = 0;
  const unsubscribe = deps.onProjectChanged(() => {
    generation++;
    entries.clear();
  });

  return {
    async find(apiKey: string): Promise<KeyProject | null> {
      const now = Date.now();
      const entry = entries.get(apiKey);
      if (entry && entry.expiresAt > now) return entry.project;
      const startedAt = generation;
      const project = await deps.findProjectByApiKey(apiKey);
      if (startedAt === generation) {
        if (entries.size >= MAX_ENTRIES) entries.clear();
        entries.set(apiKey, { project, expiresAt: now + TTL_MS });
      }
      return project;
    },
    close: unsubscribe,
  };
}
