import { describe, expect, it } from 'vitest';
import { blankRow } from '../../src/modules/event-store/event-row.ts';
import { rowsOfRecord } from '../../src/modules/event-store/log-records.ts';
import { incidentIdOfError } from '../../src/modules/incidents/fingerprint.ts';
import { batchEntry, withIncidentId } from '../../src/modules/ingestion/log-entries.ts';

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
function loggedIncidents(
  project: string,
  events: ReturnType<typeof error>[],
  ignoredWalletCodes?: readonly number[],
): (string | null)[] {
  return batchEntry(request(project), events as never, ignoredWalletCodes)
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
      { message: 'Internal JSON-RPC error.', code: -32603, method: 'eth_sendTransaction' },
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

describe('wallet noise: errors whose wallet code the project ignores get no incident (ADR 067)', () => {
  const refusal = {
    message: 'User rejected the request.',
    code: 4001,
    method: 'eth_sendTransaction',
    source: 'wallet' as const,
  };
  const unauthorized = { ...refusal, message: 'Unauthorized', code: 4100 };
  const internal = { ...refusal, message: 'Internal JSON-RPC error.', code: -32603 };

  it('4001 by default, whatever the client that sent it; other codes stay incidents', () => {
    const [a, b, c] = loggedIncidents('p1', [
      error('n1', refusal),
      error('n2', unauthorized),
      error('n3', internal),
    ]);
    expect(a).toBeNull();
    expect(b).toMatch(/^inc_/);
    expect(c).toMatch(/^inc_/);
  });

  it("the project's list replaces the default: an empty list keeps refusals, others drop their codes", () => {
    const events = [error('n1', refusal), error('n2', unauthorized), error('n3', internal)];
    expect(loggedIncidents('p1', events, []).map((id) => id !== null)).toEqual([true, true, true]);
    expect(loggedIncidents('p1', events, [4100, -32603]).map((id) => id !== null)).toEqual([
      true,
      false,
      false,
    ]);
    // The remembered ids do not leak one list's answer into another's.
    expect(loggedIncidents('p1', events, [4001]).map((id) => id !== null)).toEqual([false, true, true]);
  });

  it("the published 1.0.25 SDK's errors (no code field): the code written in the text, else a worded refusal", () => {
    const legacy = (id: string, message: string, stack: string | null = null) => ({
      ...blankRow({
        project_id: 'p1',
        id,
        type: 'error',
        ts: 1,
        received_at: 1,
        user_id: 'u',
        session_id: 's',
        origin: 'app.example.com',
      }),
      error_source: 'window',
      error_message: message,
      error_stack: stack,
      sdk: 'polyflow-legacy/1.0.25',
    });
    const incidentOf = (row: ReturnType<typeof legacy>, codes?: number[]) =>
      withIncidentId(row, codes).incident_id;
    expect(incidentOf(legacy('l1', 'User rejected the request.'))).toBeNull();
    expect(incidentOf(legacy('l2', 'MetaMask Tx Signature: User denied transaction signature.'))).toBeNull();
    expect(
      incidentOf(legacy('l3', 'user rejected action (code=ACTION_REJECTED, version=6.13.4)')),
    ).toBeNull();
    expect(incidentOf(legacy('l4', '{"code":4001,"message":"rejected"}'))).toBeNull();
    expect(incidentOf(legacy('l5', 'Request failed', 'Error: {"code": -32002}'), [-32002])).toBeNull();
    expect(incidentOf(legacy('l6', 'TypeError: x is undefined'))).toMatch(/^inc_/);
    // Without 4001 on the list a worded refusal is an incident again.
    expect(incidentOf(legacy('l7', 'User rejected the request.'), [4100])).toMatch(/^inc_/);
    // The current SDK's page errors carry no code of the wallet: their text is not read.
    const page = { ...legacy('l8', 'User rejected the request.'), sdk: 'polyflow/1.2.3' };
    expect(incidentOf(page)).toMatch(/^inc_/);
  });
});
