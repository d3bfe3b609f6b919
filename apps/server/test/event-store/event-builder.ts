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
