import { describe, expect, it } from 'vitest';
import { rowsOfRecord } from '../../src/modules/event-store/log-records.ts';
import { incidentIdOfError } from '../../src/modules/incidents/fingerprint.ts';
import { batchEntry } from '../../src/modules/ingestion/log-entries.ts';

const request = (project: string) => ({
  project,
  origin: 'app.example.com',
  receivedAt: 1_767_225_601_234,
  sdk: 'polyflow/1.2.3',
  country: null,
  browser: null,
  os: null,
  device: null,
});

const error = (id: string, fields: { message: string; stack?: string; code?: number; method?: string }) => ({
  id,
  type: 'error' as const,
  ts: 1_767_225_600_000,
  userId: 'u1',
  sessionId: 's1',
  path: '/',
  source: 'window' as const,
  ...fields,
});

/** The incident id each error event of a batch is logged with. */
function loggedIncidents(project: string, events: ReturnType<typeof error>[]): (string | null)[] {
  return batchEntry(request(project), events as never)
    .encode(new Set())
    .split('\n')
    .filter(Boolean)
    .flatMap(rowsOfRecord)
    .map((row) => row.incident_id);
}

describe('incident ids on the request path (remembered for repeated errors)', () => {
  it('are those of the fingerprint, per project, however often and in whatever order an error repeats', () => {
    const longStack = `Error: boom\n${'    at f (https://dapp.example/app.js:1:2)\n'.repeat(200)}`;
    const cases = [
      { message: 'a\u0000b', stack: 'at x (https://d/app.js:1:1)' },
      { message: 'a', stack: 'b\u0000at x (https://d/app.js:1:1)' },
      { message: 'TypeError: x is undefined', stack: 'at a (app.js:1:2)' },
      { message: 'TypeError: x is undefined', stack: longStack },
      { message: 'User rejected', code: 4001, method: 'eth_sendTransaction' },
    ];
    const events = [...cases, ...cases.toReversed(), ...cases].map((fields, index) =>
      error(`e${index}`, fields),
    );
    for (const project of ['p1', 'p2']) {
      const expected = events.map((event) =>
        incidentIdOfError(project, {
          source: event.source,
          message: event.message,
          stack: event.stack,
          code: event.code,
          method: event.method,
        }),
      );
      expect(loggedIncidents(project, events)).toEqual(expected);
    }
    // The two texts that only a separator could confuse are two incidents, and projects never share one.
    const [first, second] = loggedIncidents('p1', events.slice(0, 2));
    expect(first).not.toBe(second);
    expect(loggedIncidents('p2', events.slice(0, 1))[0]).not.toBe(first);
  });
});
