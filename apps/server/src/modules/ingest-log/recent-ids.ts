/**
 * The ids of the most recently acknowledged events, per project, in two generations: when the
 * current one is full it becomes the previous one and the older ids are forgotten. Memory stays
 * bounded (about 100 bytes per id) while SDK retries, which come seconds after the original, are
 * still recognised. Older duplicates are still never stored twice: the loader's primary key drops them.
 * Ids are looked up as they came in the request (no key string to build per event: this runs for
 * every event on the request path).
 */
export function createRecentIds(generationSize = 250_000) {
  let current = new Map<string, Set<string>>();
  let previous = new Map<string, Set<string>>();
  let size = 0;
  return {
    has: (project: string, id: string) =>
      current.get(project)?.has(id) === true || previous.get(project)?.has(id) === true,
    /** Forgets an id added by an append that failed (a later add may have moved it to the previous generation). */
    delete(project: string, id: string): void {
      if (current.get(project)?.delete(id)) size--;
      else previous.get(project)?.delete(id);
    },
    add(project: string, id: string): void {
      if (size >= generationSize) {
        previous = current;
        current = new Map();
        size = 0;
      }
      let ids = current.get(project);
      if (!ids) {
        ids = new Set();
        current.set(project, ids);
      }
      ids.add(id);
      size++;
    },
  };
}
