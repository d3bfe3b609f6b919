import type { CustomEventVocabulary } from '../event-store/custom-event-questions.ts';

/** Per project: distinct custom event names, and distinct property keys (traits included). */
export const MAX_EVENT_NAMES = 500;
export const MAX_PROPERTY_KEYS = 100;
/** How long a project's stored names and keys are trusted before they are read again (other nodes add too). */
const REFRESH_MS = 60_000;

type Known = { names: Set<string>; keys: Set<string>; readAt: number };
type WireEvent = { type: string; name?: string; props?: object; traits?: object };

/** An event the limits keep out of the store: its place in the batch and why (the answer's `dropped`). */
export type DroppedEvent = { index: number; errorCode: 'CUSTOM_EVENT_LIMIT'; message: string };

/**
 * The per-project limits of custom events (docs/custom-events.md#limits, ADR 168): an event that would take
 * a project past 500 distinct names or 100 distinct property keys is dropped, the batch's other events
 * stored (a transaction's stages never go with a custom event over a limit); events of names and keys
 * already known always pass. Each node knows what the store holds (read again after a minute) and what it
 * accepted since, so nodes accepting new names at the same moment can pass the limit by a few.
 */
export function createVocabularyLimits(
  store: { customEventVocabulary(projectId: string): Promise<CustomEventVocabulary> },
  now: () => number,
) {
  const projects = new Map<string, Known>();

  async function knownOf(projectId: string): Promise<Known> {
    const cached = projects.get(projectId);
    if (cached && now() - cached.readAt < REFRESH_MS) return cached;
    const stored = await store.customEventVocabulary(projectId);
    const known = {
      names: new Set([...stored.names, ...(cached?.names ?? [])]),
      keys: new Set([...stored.keys, ...(cached?.keys ?? [])]),
      readAt: now(),
    };
    projects.set(projectId, known);
    return known;
  }

  return {
    /**
     * The batch's events over a limit (none for batches without custom events or identifies); records the
     * new names and keys of the others.
     */
    async check(projectId: string, events: readonly WireEvent[]): Promise<DroppedEvent[]> {
      if (!events.some((event) => event.type === 'custom' || event.type === 'identify')) return [];
      const known = await knownOf(projectId);
      const dropped: DroppedEvent[] = [];
      events.forEach((event, index) => {
        if (event.type !== 'custom' && event.type !== 'identify') return;
        const newName =
          event.type === 'custom' && event.name !== undefined && !known.names.has(event.name)
            ? event.name
            : null;
        const field = event.type === 'custom' ? 'props' : 'traits';
        const newKeys = Object.keys(event[field] ?? {}).filter((key) => !known.keys.has(key));
        const drop = (message: string) => dropped.push({ index, errorCode: 'CUSTOM_EVENT_LIMIT', message });
        if (newName !== null && known.names.size >= MAX_EVENT_NAMES) {
          drop(
            `the project has ${MAX_EVENT_NAMES} custom event names already; "${newName}" would be one more`,
          );
          return;
        }
        const overKey = newKeys[MAX_PROPERTY_KEYS - known.keys.size];
        if (overKey !== undefined) {
          drop(`the project has ${MAX_PROPERTY_KEYS} property keys already; "${overKey}" would be one more`);
          return;
        }
        if (newName !== null) known.names.add(newName);
        for (const key of newKeys) known.keys.add(key);
      });
      return dropped;
    },
  };
}
