import { blankRow, type EventRow } from '../../src/modules/event-store/event-row.ts';

/**
 * Builds stored events of one project for the event-store tests: ids `ev-1`, `ev-2`, … in the order
 * built, one user and session unless `fields` say otherwise.
 */
export function eventBuilder(projectId: string) {
  let built = 0;
  return (type: string, ts: number, fields: Partial<EventRow> = {}): EventRow => {
    built += 1;
    return {
      ...blankRow({
        project_id: projectId,
        id: `ev-${built}`,
        type,
        ts,
        received_at: ts,
        user_id: 'u1',
        session_id: 's1',
        origin: 'app.example.com',
      }),
      ...fields,
    };
  };
}

/**
 * A small deterministic picker for generated fixtures (no Math.random: the same events every run): each
 * call returns one of `values`, the sequence fixed by `seed`.
 */
export function sequence(seed: number) {
  let state = seed;
  return <T>(values: readonly T[]): T => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return values[Math.floor(state / 65_536) % values.length] as T;
  };
}
