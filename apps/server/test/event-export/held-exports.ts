import { type IncomingMessage, request } from 'node:http';
import { blankRow, type EventRow } from '../../src/modules/event-store/event-row.ts';

/** ~2 KB a row, ~12 MB for 6,000: more than the loopback socket's buffers, so a paused client holds its export. */
const STACK = 'at swap (https://app.example.com/assets/index-4f3a.js:1:2345)\n'.repeat(32);
const T0 = Date.UTC(2026, 2, 1);

/** `count` error events of the project on 2026-03-01, each carrying a long stack. */
export function heavyErrorRows(projectId: string, count: number): EventRow[] {
  return Array.from({ length: count }, (_, index) => ({
    ...blankRow({
      project_id: projectId,
      id: `ev-${index}`,
      type: 'error',
      ts: T0 + index,
      received_at: T0 + index,
      user_id: 'u',
      session_id: 's',
      origin: 'app.example.com',
    }),
    error_message: 'boom',
    error_stack: STACK,
  }));
}

/** Starts an export of that day and reads nothing after its head: its slot stays taken while it is open. */
export function startPausedExport(
  baseUrl: string,
  projectId: string,
  token: string,
): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const asked = request(
      `${baseUrl}/api/v1/projects/${projectId}/export/events?from=2026-03-01&to=2026-03-02`,
      { headers: { authorization: `Bearer ${token}` } },
    );
    asked.on('error', reject);
    asked.on('response', (response) => {
      response.pause();
      // A stalled export the server ends is a reset, not a failure of the test.
      response.on('error', () => {});
      resolve(response);
    });
    asked.end();
  });
}
