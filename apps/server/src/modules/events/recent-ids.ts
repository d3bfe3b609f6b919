/**
 * The (project, id) keys of the most recently acknowledged events, in two generations: when the
 * current one is full it becomes the previous one and the older keys are forgotten. Memory stays
 * bounded (about 100 bytes per key) while SDK retries, which come seconds after the original, are
 * still recognised. Older duplicates are still never stored twice: the loader's primary key drops them.
 */
export function createRecentIds(generationSize = 250_000) {
  let current = new Set<string>();
  let previous = new Set<string>();
  return {
    has: (key: string) => current.has(key) || previous.has(key),
    add(key: string): void {
      if (current.size >= generationSize) {
        previous = current;
        current = new Set();
      }
      current.add(key);
    },
  };
}

export const eventKey = (projectId: string, id: string) => `${projectId}\n${id}`;
