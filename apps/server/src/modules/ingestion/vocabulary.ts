import { AppError } from '../../errors.ts';
import type { CustomEventVocabulary } from '../event-store/custom-event-questions.ts';

/** Per project: distinct custom event names, and distinct property keys (traits included). */
export const MAX_EVENT_NAMES = 500;
export const MAX_PROPERTY_KEYS = 100;
/** How long a project's stored names and keys are trusted before they are read again (other nodes add too). */
const REFRESH_MS = 60_000;

type Known = { names: Set<string>; keys: Set<string>; readAt: number };
type WireEvent = { type: string; name?: string; props?: object; traits?: object };

/**
 * The per-project limits of custom events (docs/custom-events.md#limits): a batch whose events would take a
 * project past 500 distinct names or 100 distinct property keys is refused whole (400 CUSTOM_EVENT_LIMIT,
 * naming the first such event), as a batch with an invalid event is; events of names and keys already known
 * always pass. Each node knows what the store holds (read again after a minute) and what it accepted since,
 * so nodes accepting new names at the same moment can pass the limit by a few.
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
    /** Throws CUSTOM_EVENT_LIMIT, or records the batch's new names and keys. Free for batches without any. */
    async check(projectId: string, events: readonly WireEvent[]): Promise<void> {
      if (!events.some((event) => event.type === 'custom' || event.type === 'identify')) return;
      const known = await knownOf(projectId);
      const names = new Set(known.names);
      const keys = new Set(known.keys);
      events.forEach((event, index) => {
        if (event.type !== 'custom' && event.type !== 'identify') return;
        if (event.type === 'custom' && event.name !== undefined && !names.has(event.name)) {
          if (names.size >= MAX_EVENT_NAMES)
            throw new AppError(
              400,
              'CUSTOM_EVENT_LIMIT',
              `Invalid batch: event ${index}: the project has ${MAX_EVENT_NAMES} custom event names already; "${event.name}" would be one more.`,
              [
                {
                  path: `events.${index}.name`,
                  message: `more than ${MAX_EVENT_NAMES} custom event names`,
                },
              ],
            );
          names.add(event.name);
        }
        const field = event.type === 'custom' ? 'props' : 'traits';
        for (const key of Object.keys(event[field] ?? {})) {
          if (keys.has(key)) continue;
          if (keys.size >= MAX_PROPERTY_KEYS)
            throw new AppError(
              400,
              'CUSTOM_EVENT_LIMIT',
              `Invalid batch: event ${index}: the project has ${MAX_PROPERTY_KEYS} property keys already; "${key}" would be one more.`,
              [
                {
                  path: `events.${index}.${field}`,
                  message: `more than ${MAX_PROPERTY_KEYS} property keys`,
                },
              ],
            );
          keys.add(key);
        }
      });
      known.names = names;
      known.keys = keys;
    },
  };
}
