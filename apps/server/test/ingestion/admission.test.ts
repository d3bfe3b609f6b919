import { describe, expect, it } from 'vitest';
import type { BacklogState } from '../../src/modules/ingest-log/service.ts';
import { type Admission, createAdmission } from '../../src/modules/ingestion/admission.ts';

const KEY = `pf_${'a'.repeat(32)}`;
const ORIGIN = 'https://shop.example.com';
const PROJECT = { id: 'p1', whitelistedDomains: ['shop.example.com'], ignoredWalletCodes: [4001] };

/** Admission over a counted key look-up and a counted backlog, as ADR 075 promises: each read once. */
function admissionWith(
  backlog: BacklogState,
  options: { overShare?: boolean; eventsPerMinute?: number } = {},
) {
  const calls = { lookups: 0, backlogReads: 0 };
  const admission = createAdmission({
    projects: {
      findProjectByApiKey: async (apiKey) => {
        calls.lookups++;
        return apiKey === KEY ? PROJECT : null;
      },
      onProjectChanged: () => () => {},
    },
    log: {
      backlog: () => {
        calls.backlogReads++;
        return backlog;
      },
      isOverShare: () => options.overShare ?? false,
    },
    rateLimit: { eventsPerMinute: options.eventsPerMinute ?? 1_000 },
  });
  return { admission, calls };
}

const body = (apiKey: string, events = 1) =>
  `{"apiKey":"${apiKey}","events":${JSON.stringify(Array.from({ length: events }, () => ({})))}}`;

/** What a refusal answers: status, code, Retry-After and whether the page may read it. */
function refusalOf(admission: Admission) {
  if (admission.admitted) return 'admitted';
  const { status, errorCode, retryAfterSeconds } = admission.refusal;
  return { status, errorCode, retryAfterSeconds, pageMayRead: admission.pageMayRead };
}

describe('ingestion admission: one call, one answer', () => {
  it('admits with the project and the parsed body, reading the backlog and the key once', async () => {
    const { admission, calls } = admissionWith('clear');
    const answer = await admission.admitBatch(body(KEY, 2), ORIGIN);
    expect(answer).toEqual({
      admitted: true,
      access: { projectId: 'p1', originHost: 'shop.example.com', ignoredWalletCodes: [4001] },
      body: { apiKey: KEY, events: [{}, {}] },
    });
    expect(calls).toEqual({ lookups: 1, backlogReads: 1 });
  });

  it('looks the key up once when the backlog is over its limit (the leading key is the body’s)', async () => {
    const { admission, calls } = admissionWith('over');
    expect((await admission.admitBatch(body(KEY), ORIGIN)).admitted).toBe(true);
    expect(calls).toEqual({ lookups: 1, backlogReads: 1 });
  });

  it('answers each refusal with its status, code, Retry-After and whether the page may read it', async () => {
    const answers = {
      full: refusalOf(await admissionWith('full').admission.admitBatch('not json', ORIGIN)),
      overShare: refusalOf(
        await admissionWith('over', { overShare: true }).admission.admitBatch(body(KEY), ORIGIN),
      ),
      json: refusalOf(await admissionWith('clear').admission.admitBatch('{', ORIGIN)),
      noKey: refusalOf(await admissionWith('clear').admission.admitBatch('{"events":[]}', ORIGIN)),
      unknownKey: refusalOf(
        await admissionWith('clear').admission.admitBatch(body(`pf_${'b'.repeat(32)}`), ORIGIN),
      ),
      noOrigin: refusalOf(await admissionWith('clear').admission.admitBatch(body(KEY), undefined)),
      otherOrigin: refusalOf(
        await admissionWith('clear').admission.admitBatch(body(KEY), 'https://evil.example'),
      ),
      rate: await (async () => {
        const { admission } = admissionWith('clear', { eventsPerMinute: 2 });
        expect((await admission.admitBatch(body(KEY, 2), ORIGIN)).admitted).toBe(true);
        return refusalOf(await admission.admitBatch(body(KEY, 2), ORIGIN));
      })(),
    };
    expect(answers).toEqual({
      full: { status: 503, errorCode: 'INGESTION_BACKLOG', retryAfterSeconds: 5, pageMayRead: true },
      overShare: { status: 503, errorCode: 'INGESTION_BACKLOG', retryAfterSeconds: 5, pageMayRead: true },
      json: {
        status: 400,
        errorCode: 'INVALID_REQUEST_BODY',
        retryAfterSeconds: undefined,
        pageMayRead: false,
      },
      noKey: {
        status: 400,
        errorCode: 'INVALID_REQUEST_BODY',
        retryAfterSeconds: undefined,
        pageMayRead: false,
      },
      unknownKey: {
        status: 401,
        errorCode: 'NON_EXISTENT_API_KEY',
        retryAfterSeconds: undefined,
        pageMayRead: false,
      },
      noOrigin: {
        status: 403,
        errorCode: 'ORIGIN_NOT_WHITELISTED',
        retryAfterSeconds: undefined,
        pageMayRead: false,
      },
      otherOrigin: {
        status: 403,
        errorCode: 'ORIGIN_NOT_WHITELISTED',
        retryAfterSeconds: undefined,
        pageMayRead: false,
      },
      rate: { status: 429, errorCode: 'RATE_LIMITED', retryAfterSeconds: 60, pageMayRead: true },
    });
  });

  it('refuses beyond twice the limit before parsing or looking anything up', async () => {
    const { admission, calls } = admissionWith('full');
    await admission.admitBatch(body(KEY), ORIGIN);
    expect(calls).toEqual({ lookups: 0, backlogReads: 1 });
  });

  it('admits one event of the published SDK by its X-API-KEY, by the same rules', async () => {
    const { admission, calls } = admissionWith('over', { overShare: true });
    expect(refusalOf(await admission.admitEvent(KEY, ORIGIN))).toEqual({
      status: 503,
      errorCode: 'INGESTION_BACKLOG',
      retryAfterSeconds: 5,
      pageMayRead: true,
    });
    expect(refusalOf(await admissionWith('clear').admission.admitEvent(undefined, ORIGIN))).toMatchObject({
      status: 401,
    });
    expect(calls).toEqual({ lookups: 1, backlogReads: 1 });
  });
});
