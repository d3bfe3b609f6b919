/** What ingestion keeps of a project: where its events may come from, which wallet codes are noise. */
export type KeyProject = { id: string; whitelistedDomains: string[]; ignoredWalletCodes: readonly number[] };

export type KeyCacheDeps = {
  findProjectByApiKey(apiKey: string): Promise<KeyProject | null>;
  onProjectChanged(listener: (projectId: string) => void): () => void;
};

const MAX_ENTRIES = 10_000;
/**
 * How long an answer is trusted. Changes made in this process invalidate at once through
 * `onProjectChanged`; a change made on another node (several nodes on one PostgreSQL, docs/scaling.md)
 * is seen once the entry expires, so a revoked key or a removed domain stops working everywhere within
 * this time plus one look-up (the promise: 5 s; ADR 019). It costs each node one indexed query per key
 * in use every 2 s.
 */
export const KEY_CACHE_TTL_MS = 2_000;

type Entry = { project: KeyProject | null; expiresAt: number };

/**
 * API key → project, in memory, so ingestion does not query the account store per request. Unknown keys
 * are cached too (a misconfigured dapp retries a lot). Any project change made here empties the cache, so
 * a replaced or revoked key fails with the very next request on this node.
 */
export function createKeyCache(deps: KeyCacheDeps, options: { ttlMs?: number; now?: () => number } = {}) {
  const ttlMs = options.ttlMs ?? KEY_CACHE_TTL_MS;
  const now = options.now ?? Date.now;
  const entries = new Map<string, Entry>();
  // Requests that miss together share one look-up (an expiry under load would otherwise send one each).
  const lookups = new Map<string, Promise<KeyProject | null>>();
  // A lookup that started before a change must not put its stale answer back after the change.
  let generation = 0;
  const unsubscribe = deps.onProjectChanged(() => {
    generation++;
    entries.clear();
    lookups.clear();
  });

  function lookUp(apiKey: string): Promise<KeyProject | null> {
    // The expiry counts from before the query: an answer read just before a change on another node
    // is not trusted for longer than `ttlMs` after it.
    const startedAt = now();
    const startedIn = generation;
    const lookup = deps
      .findProjectByApiKey(apiKey)
      .then((project) => {
        if (startedIn === generation) {
          if (entries.size >= MAX_ENTRIES) entries.clear();
          entries.set(apiKey, { project, expiresAt: startedAt + ttlMs });
        }
        return project;
      })
      .finally(() => {
        if (lookups.get(apiKey) === lookup) lookups.delete(apiKey);
      });
    lookups.set(apiKey, lookup);
    return lookup;
  }

  return {
    find(apiKey: string): Promise<KeyProject | null> {
      const entry = entries.get(apiKey);
      if (entry && entry.expiresAt > now()) return Promise.resolve(entry.project);
      return lookups.get(apiKey) ?? lookUp(apiKey);
    },
    close: unsubscribe,
  };
}
