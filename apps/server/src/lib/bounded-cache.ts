/** Entries a cache holds before it starts again. */
const MAX_ENTRIES = 5000;

/** A Map that forgets everything when it grows past its size: cheap, and enough for hot keys. */
export function boundedCache<V>(maxEntries = MAX_ENTRIES) {
  const map = new Map<string, V>();
  return {
    get: (key: string) => map.get(key),
    set(key: string, value: V) {
      if (map.size >= maxEntries) map.clear();
      map.set(key, value);
    },
  };
}
