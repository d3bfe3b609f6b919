import type { LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asDuckDbEventStore } from '../../src/modules/event-store/duckdb/duckdb-event-store.ts';
import { everyEventShape } from '../ingestion/wire-events.ts';
import { useTestApp } from '../support/harness.ts';
import { type SeededProject, seed, snapshot } from '../support/seed.ts';
import {
  HOSTILE_BODIES,
  HOSTILE_CONTENT_TYPES,
  HOSTILE_IDS,
  HOSTILE_VALUES,
  type Kind,
  leafPaths,
  replaceAt,
  serialize,
  UNSTORABLE,
} from './hostile-values.ts';

/**
 * Every REST route, every GraphQL query and mutation, and the ingestion route, each sent what an
 * attacker would send (hostile-values.ts) one position at a time: every answer must be a 4xx in the
 * documented shape, never a 5xx, and nothing may be written: the accounts store, the mail outbox and the
 * ingestion log are read back after every case, the event store at the end.
 */
const t = useTestApp('sqlite', { healthMinFreeDiskBytes: 0 });
const ORIGIN = 'https://app.example.com';
const XSRF = 'hostile-suite-xsrf-token';
let owner: SeededProject;
/** The state before the next case (state()), and the write counters it was read at (writeCounters()). */
let before: string;
let beforeCounters: string;

/** Cases tried and failures, per route family (printed at the end for the report). */
const tally = new Map<string, { cases: number; failures: string[] }>();

async function state(): Promise<string> {
  const { db, events } = t.services;
  const sessions = await db.selectFrom('sessions').select('id').orderBy('id').execute();
  const outbox = await db.selectFrom('mail_outbox').select('id').orderBy('id').execute();
  return JSON.stringify([await snapshot(t.services), sessions, outbox, events.loaderState().pendingBytes]);
}

/**
 * What has been written since the accounts store opened: SQLite's total_changes() on the store's one
 * connection (every row inserted, updated or deleted, in any table, triggers included), and the ingestion
 * log's pending bytes. While both stay put, state() is what it was: the ~9,000 cases read 24 tables each
 * only after a case that wrote (about a third of the file's time otherwise).
 */
async function writeCounters(): Promise<string> {
  const { rows } = await sql<{ changes: number }>`SELECT total_changes() AS changes`.execute(t.services.db);
  return JSON.stringify([rows[0]?.changes, t.services.events.loaderState().pendingBytes]);
}

/** Takes the state the next cases are judged against. */
async function markState(): Promise<void> {
  beforeCounters = await writeCounters();
  before = await state();
}

/** Whether anything was written since markState(): the full state compared only when a counter moved. */
async function wroteSinceMark(): Promise<boolean> {
  const counters = await writeCounters();
  if (counters === beforeCounters) return false;
  if ((await state()) !== before) return true;
  // Written and put back (a rolled-back transaction): the same state, at the new counters.
  beforeCounters = counters;
  return false;
}

type Request = {
  method: string;
  url: string;
  payload?: string;
  contentType?: string;
  headers?: Record<string, string>;
};

async function send({
  method,
  url,
  payload,
  contentType,
  headers,
}: Request): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method: method as 'POST',
    url,
    payload,
    headers: {
      authorization: `Bearer ${owner.user.token}`,
      cookie: `XSRF-TOKEN=${XSRF}`,
      'x-xsrf-token': XSRF,
      'x-api-key': owner.project.apiKey as string,
      origin: ORIGIN,
      ...(payload !== undefined && { 'content-type': contentType ?? 'application/json' }),
      ...headers,
    },
  });
}

/** Sends one case and records whether it was a 4xx in the documented shape that changed nothing. */
async function expectRefused(family: string, label: string, request: Request): Promise<void> {
  const entry = tally.get(family) ?? { cases: 0, failures: [] };
  tally.set(family, entry);
  entry.cases++;
  const response = await send(request);
  let problem: string | undefined;
  if (response.statusCode < 400 || response.statusCode >= 500) problem = `status ${response.statusCode}`;
  else {
    const body = (() => {
      try {
        return response.json() as Record<string, unknown>;
      } catch {
        return undefined;
      }
    })();
    const errors = body?.errors as { extensions?: { code?: unknown } }[] | undefined;
    const hasShape =
      (typeof body?.errorCode === 'string' && typeof body?.message === 'string') ||
      (Array.isArray(errors) &&
        errors.length > 0 &&
        errors.every((error) => typeof error.extensions?.code === 'string'));
    if (!hasShape) problem = 'not in the documented error shape';
    else if (JSON.stringify(body).includes('INTERNAL_ERROR')) problem = 'INTERNAL_ERROR';
  }
  if (!problem && (await wroteSinceMark())) problem = 'wrote something';
  if (problem) {
    entry.failures.push(`${label}: ${problem} (${response.statusCode} ${response.body.slice(0, 160)})`);
    // The next case is judged on its own: whatever this one started (an email, a load) settles first.
    await t.services.mail.flush();
    await t.services.events.flush();
    await markState();
  }
}

beforeAll(async () => {
  owner = await seed(t.services).user().verified().project('Hostile').apiKey().domain('app.example.com');
  await t.services.mail.flush();
  await t.services.events.flush();
  await markState();
});

afterAll(() => {
  const lines = [...tally].map(
    ([family, { cases, failures }]) => `${family}: ${cases} cases, ${failures.length} failing`,
  );
  console.info(`hostile-input suite\n${lines.join('\n')}`);
});

/** Field-level, body-level, content-type and size cases for a route taking a JSON object. */
async function jsonRouteCases(
  family: string,
  method: string,
  url: string,
  body: Record<string, unknown>,
  kinds: Record<string, Kind>,
) {
  const name = `${method} ${url}`;
  for (const path of leafPaths(body)) {
    const kind = kinds[String(path.at(-1))] ?? 'text';
    for (const { label, value } of HOSTILE_VALUES[kind]) {
      await expectRefused(family, `${name} ${path.join('.')}=${label}`, {
        method,
        url,
        payload: serialize(replaceAt(body, path, value)),
      });
    }
  }
  for (const { label, payload } of HOSTILE_BODIES) {
    await expectRefused(family, `${name} body ${label}`, { method, url, payload });
  }
  for (const contentType of HOSTILE_CONTENT_TYPES) {
    await expectRefused(family, `${name} as ${contentType}`, {
      method,
      url,
      payload: JSON.stringify(body),
      contentType,
    });
  }
  await expectRefused(family, `${name} 2 MB body`, {
    method,
    url,
    payload: JSON.stringify({ ...body, padding: 'a'.repeat(2 * 1024 * 1024) }),
  });
  await expectRefused(family, `${name} unknown field`, {
    method,
    url,
    payload: JSON.stringify({ ...body, isAdmin: true }),
  });
}

describe('hostile input', () => {
  it('REST: accounts', { timeout: 120_000 }, async () => {
    const email = 'hostile@example.com';
    const password = 'a long enough password';
    const token = 'x'.repeat(43);
    const routes: [string, Record<string, unknown>][] = [
      ['/api/v1/register', { email, password }],
      ['/api/v1/register/verify', { token }],
      ['/api/v1/register/resend', { email }],
      ['/api/v1/login', { email, password }],
      ['/api/v1/forgot-password', { email }],
      ['/api/v1/forgot-password/reset', { token, newPassword: password }],
    ];
    for (const [url, body] of routes) await jsonRouteCases('REST accounts', 'POST', url, body, {});
    for (const { label, payload } of HOSTILE_BODIES) {
      await expectRefused('REST accounts', `POST /api/v1/logout body ${label}`, {
        method: 'POST',
        url: '/api/v1/logout',
        payload,
      });
    }
    expect(tally.get('REST accounts')?.failures).toEqual([]);
  });

  it('REST: projects, domains, keys, integration status and health', { timeout: 120_000 }, async () => {
    const family = 'REST projects';
    const id = owner.project.id;
    await jsonRouteCases(family, 'POST', '/api/v1/projects', { name: 'A project' }, {});
    for (const action of ['add', 'delete']) {
      await jsonRouteCases(
        family,
        'PATCH',
        `/api/v1/projects/${id}/domains/${action}`,
        { domain: 'shop.example.org' },
        {},
      );
    }
    const byId: [string, (id: string) => string, boolean][] = [
      ['POST', (x) => `/api/v1/projects/${x}/api-key`, true],
      ['DELETE', (x) => `/api/v1/projects/${x}/api-key`, true],
      ['DELETE', (x) => `/api/v1/projects/${x}`, true],
      ['PATCH', (x) => `/api/v1/projects/${x}/domains/add`, false],
      ['GET', (x) => `/api/v1/projects/${x}/integration`, false],
      ['GET', (x) => `/api/v1/projects/${x}/live`, false],
    ];
    for (const [method, url, takesNoBody] of byId) {
      for (const hostileId of HOSTILE_IDS) {
        const payload = method === 'PATCH' ? JSON.stringify({ domain: 'shop.example.org' }) : undefined;
        await expectRefused(family, `${method} ${url(':id')} id=${hostileId.slice(0, 20)}`, {
          method,
          url: url(hostileId),
          payload,
        });
      }
      if (takesNoBody) {
        for (const { label, payload } of HOSTILE_BODIES) {
          await expectRefused(family, `${method} ${url(':id')} body ${label}`, {
            method,
            url: url(id),
            payload,
          });
        }
        await expectRefused(family, `${method} ${url(':id')} as text/plain`, {
          method,
          url: url(id),
          payload: '{}',
          contentType: 'text/plain',
        });
      }
    }
    for (const since of [
      '2024-13-45T00:00:00Z',
      'yesterday',
      '',
      '%00',
      'a'.repeat(5000),
      '%ED%A0%80',
      '2024-01-01T00:00:00Z%00',
    ]) {
      await expectRefused(family, `GET integration since=${since.slice(0, 20)}`, {
        method: 'GET',
        url: `/api/v1/projects/${id}/integration?since=${since}`,
      });
    }
    for (const hostileId of HOSTILE_IDS) {
      await expectRefused(family, `GET /api/v1/projects/${hostileId.slice(0, 20)} (no such route)`, {
        method: 'GET',
        url: `/api/v1/projects/${hostileId}`,
      });
    }
    expect(tally.get(family)?.failures).toEqual([]);
  });

  it('REST: report subscriptions and the unsubscribe link', { timeout: 120_000 }, async () => {
    const family = 'REST reports';
    const id = owner.project.id;
    await jsonRouteCases(
      family,
      'PUT',
      `/api/v1/projects/${id}/report-subscriptions/me`,
      { weekly: true, monthly: false },
      { weekly: 'boolean', monthly: 'boolean' },
    );
    for (const hostileId of HOSTILE_IDS) {
      for (const [method, url] of [
        ['GET', `/api/v1/projects/${hostileId}/report-subscriptions`],
        ['PUT', `/api/v1/projects/${hostileId}/report-subscriptions/me`],
      ] as const) {
        await expectRefused(family, `${method} …/report-subscriptions id=${hostileId.slice(0, 20)}`, {
          method,
          url,
          payload: method === 'PUT' ? JSON.stringify({ weekly: true, monthly: true }) : undefined,
        });
      }
    }
    // The link's page is HTML; a client that accepts only JSON gets the error body.
    for (const token of [...HOSTILE_IDS, 'r1.a.b.w.c', `r1.${id}.${id}.w.${'A'.repeat(43)}`]) {
      await expectRefused(family, `GET /api/v1/reports/unsubscribe token=${token.slice(0, 20)}`, {
        method: 'GET',
        url: `/api/v1/reports/unsubscribe?token=${encodeURIComponent(token)}`,
        headers: { accept: 'application/json' },
      });
    }
    expect(tally.get(family)?.failures).toEqual([]);
  });

  it('REST: write tokens and source-map uploads', { timeout: 120_000 }, async () => {
    const family = 'REST source maps';
    const id = owner.project.id;
    await jsonRouteCases(family, 'POST', `/api/v1/projects/${id}/write-tokens`, { name: 'CI' }, {});
    const byId: [string, (id: string) => string][] = [
      ['GET', (x) => `/api/v1/projects/${x}/write-tokens`],
      ['DELETE', (x) => `/api/v1/projects/${id}/write-tokens/${x}`],
      ['GET', (x) => `/api/v1/projects/${x}/releases/sourcemaps`],
      ['POST', (x) => `/api/v1/projects/${x}/releases/1.0.0/sourcemaps`],
      // Hostile release names: too long, bad encodings, control characters, path tricks; none is multipart.
      ['POST', (x) => `/api/v1/projects/${id}/releases/${x}/sourcemaps`],
      // Deleting a release's maps: hostile project ids and release names alike.
      ['DELETE', (x) => `/api/v1/projects/${x}/releases/1.0.0/sourcemaps`],
      ['DELETE', (x) => `/api/v1/projects/${id}/releases/${x}/sourcemaps`],
    ];
    for (const [method, url] of byId) {
      for (const hostileId of HOSTILE_IDS) {
        await expectRefused(family, `${method} ${url(':id')} id=${hostileId.slice(0, 20)}`, {
          method,
          url: url(hostileId),
        });
      }
    }
  });

  it('REST: read tokens, retention, time zone, annotations, goals, funnels, ignored wallet codes, forget and the event export', {
    timeout: 120_000,
  }, async () => {
    const family = 'REST reading and data rights';
    const id = owner.project.id;
    await jsonRouteCases(family, 'POST', `/api/v1/projects/${id}/read-tokens`, { name: 'BI' }, {});
    await jsonRouteCases(
      family,
      'PATCH',
      `/api/v1/projects/${id}`,
      { retentionDays: 30 },
      { retentionDays: 'integer' },
    );
    await jsonRouteCases(family, 'PATCH', `/api/v1/projects/${id}`, { timeZone: 'Europe/Berlin' }, {});
    const annotation = { text: 'Deployed', startDate: '2026-03-29', endDate: '2026-03-30' };
    const dates = { startDate: 'date', endDate: 'date' } as const;
    await jsonRouteCases(family, 'POST', `/api/v1/projects/${id}/annotations`, annotation, dates);
    const created = await send({
      method: 'POST',
      url: `/api/v1/projects/${id}/annotations`,
      payload: JSON.stringify(annotation),
    });
    expect(created.statusCode).toBe(201);
    await markState(); // the annotation the next cases try to change
    const annotationUrl = `/api/v1/projects/${id}/annotations/${created.json().id}`;
    await jsonRouteCases(family, 'PATCH', annotationUrl, annotation, dates);
    const funnel = {
      name: 'Pricing to swap',
      windowHours: 24,
      steps: [
        { kind: 'page', path: '/pricing/*' },
        { kind: 'event', name: 'swap', property: { key: 'pair', value: 'ETH/USDC' } },
      ],
    };
    await jsonRouteCases(family, 'POST', `/api/v1/projects/${id}/funnels`, funnel, {
      windowHours: 'integer',
    });
    const savedFunnel = await send({
      method: 'POST',
      url: `/api/v1/projects/${id}/funnels`,
      payload: JSON.stringify(funnel),
    });
    expect(savedFunnel.statusCode).toBe(201);
    await markState(); // the funnel the next cases try to change
    const funnelUrl = `/api/v1/projects/${id}/funnels/${savedFunnel.json().id}`;
    await jsonRouteCases(family, 'PATCH', funnelUrl, funnel, { windowHours: 'integer' });
    // Goals: an event goal with its property, and a path goal (docs/goals.md).
    const eventGoal = {
      name: 'Pro',
      kind: 'event',
      eventName: 'signup',
      propertyKey: 'plan',
      propertyValue: 'pro',
    };
    const pathGoal = { name: 'Docs', kind: 'path', pathPattern: '/docs/**' };
    await jsonRouteCases(family, 'POST', `/api/v1/projects/${id}/goals`, eventGoal, {});
    await jsonRouteCases(family, 'POST', `/api/v1/projects/${id}/goals`, pathGoal, {});
    const goal = await send({
      method: 'POST',
      url: `/api/v1/projects/${id}/goals`,
      payload: JSON.stringify(pathGoal),
    });
    expect(goal.statusCode).toBe(201);
    await markState(); // the goal the next cases try to change
    const goalUrl = `/api/v1/projects/${id}/goals/${goal.json().id}`;
    await jsonRouteCases(family, 'PUT', goalUrl, eventGoal, {});
    await jsonRouteCases(family, 'PUT', goalUrl, pathGoal, {});
    // The codes' items are integers (the path's last key is the index).
    await jsonRouteCases(
      family,
      'PUT',
      `/api/v1/projects/${id}/ignored-wallet-codes`,
      { codes: [4001] },
      {
        '0': 'integer',
      },
    );
    await jsonRouteCases(family, 'POST', `/api/v1/projects/${id}/forget`, { userId: 'user-1' }, {});
    await jsonRouteCases(
      family,
      'POST',
      `/api/v1/projects/${id}/forget`,
      { wallet: `0x${'a'.repeat(40)}` },
      { wallet: 'id' },
    );
    const byId: [string, (id: string) => string][] = [
      ['GET', (x) => `/api/v1/projects/${x}/read-tokens`],
      ['GET', (x) => `/api/v1/projects/${x}/annotations`],
      ['PATCH', (x) => `/api/v1/projects/${id}/annotations/${x}`],
      ['DELETE', (x) => `/api/v1/projects/${id}/annotations/${x}`],
      ['GET', (x) => `/api/v1/projects/${x}/funnels`],
      ['GET', (x) => `/api/v1/projects/${id}/funnels/${x}`],
      ['PATCH', (x) => `/api/v1/projects/${id}/funnels/${x}`],
      ['DELETE', (x) => `/api/v1/projects/${id}/funnels/${x}`],
      ['GET', (x) => `/api/v1/projects/${x}/goals`],
      ['PUT', (x) => `/api/v1/projects/${id}/goals/${x}`],
      ['DELETE', (x) => `/api/v1/projects/${id}/goals/${x}`],
      ['DELETE', (x) => `/api/v1/projects/${id}/read-tokens/${x}`],
      ['DELETE', (x) => `/api/v1/projects/${x}/read-tokens/00000000-0000-4000-8000-000000000000`],
      ['GET', (x) => `/api/v1/projects/${x}/export/events?from=2024-01-01&to=2024-01-02`],
      ['GET', (x) => `/api/v1/projects/${x}/transactions.csv?status=confirmed`],
    ];
    for (const [method, url] of byId) {
      for (const hostileId of HOSTILE_IDS) {
        await expectRefused(family, `${method} ${url(':id')} id=${hostileId.slice(0, 20)}`, {
          method,
          url: url(hostileId),
        });
      }
    }
    for (const value of [
      '2024-13-45T00:00:00Z',
      'yesterday',
      '',
      '%00',
      'a'.repeat(5000),
      '%ED%A0%80',
      '2024-01-01T00:00:00Z%00',
    ]) {
      for (const query of [
        `from=${value}&to=2024-01-02`,
        `from=2024-01-01&to=${value}`,
        `from=2024-01-01&to=2024-01-02&format=${value}`,
        `from=2024-01-01&to=2024-01-02&localTime=${value}`,
      ]) {
        await expectRefused(family, `GET export ${query.slice(0, 40)}`, {
          method: 'GET',
          url: `/api/v1/projects/${id}/export/events?${query}`,
        });
      }
    }
    // The history's CSV: a blank filter is no filter, anything else it cannot read is refused.
    for (const value of [
      '2024-13-45T00:00:00Z',
      'yesterday',
      '%00',
      'a'.repeat(5000),
      '%ED%A0%80',
      '0x12345',
    ]) {
      for (const name of ['from', 'to', 'search', 'status', 'type', 'contract', 'selector']) {
        await expectRefused(family, `GET transactions.csv ${name}=${value.slice(0, 20)}`, {
          method: 'GET',
          url: `/api/v1/projects/${id}/transactions.csv?${name}=${value}`,
        });
      }
    }
    for (const token of ['pfr_', `pfr_${'a'.repeat(5000)}`, `pfr_${'a'.repeat(40)}`, "pfr_' OR '1'='1"]) {
      await expectRefused(family, `GET export with read token ${token.slice(0, 12)}`, {
        method: 'GET',
        url: `/api/v1/projects/${id}/export/events?from=2024-01-01&to=2024-01-02`,
        headers: { authorization: `Bearer ${token}` },
      });
    }
    expect(tally.get(family)?.failures).toEqual([]);
  });

  it('REST: alert channels', { timeout: 120_000 }, async () => {
    const family = 'REST alert channels';
    const id = owner.project.id;
    const url = `/api/v1/projects/${id}/alert-channels`;
    await jsonRouteCases(
      family,
      'POST',
      url,
      { type: 'webhook', name: 'Hook', url: 'https://example.com/hook' },
      {},
    );
    await jsonRouteCases(
      family,
      'POST',
      url,
      { type: 'email', name: 'People', memberIds: [owner.user.id] },
      { memberIds: 'id' },
    );
    for (const channelUrl of [
      'http://127.0.0.1/hook',
      'http://[::1]/hook',
      'http://169.254.169.254/latest/meta-data/',
      'http://10.0.0.1/hook',
      'http://localhost/hook',
      'file:///etc/passwd',
      'gopher://example.com/',
      `https://example.com/${'a'.repeat(2100)}`,
    ]) {
      await expectRefused(family, `POST alert-channels url=${channelUrl.slice(0, 40)}`, {
        method: 'POST',
        url,
        payload: JSON.stringify({ type: 'webhook', name: 'x', url: channelUrl }),
      });
    }
    const zero = '00000000-0000-4000-8000-000000000000';
    const byId: [string, (id: string) => string][] = [
      ['GET', (x) => `/api/v1/projects/${x}/alert-channels`],
      ['DELETE', (x) => `/api/v1/projects/${id}/alert-channels/${x}`],
      ['DELETE', (x) => `/api/v1/projects/${x}/alert-channels/${zero}`],
      ['POST', (x) => `/api/v1/projects/${id}/alert-channels/${x}/test`],
      ['POST', (x) => `/api/v1/projects/${x}/alert-channels/${zero}/test`],
      ['GET', (x) => `/api/v1/projects/${id}/alert-channels/${x}/deliveries`],
      ['GET', (x) => `/api/v1/projects/${x}/alert-channels/${zero}/deliveries`],
    ];
    for (const [method, route] of byId) {
      for (const hostileId of HOSTILE_IDS) {
        await expectRefused(family, `${method} ${route(':id')} id=${hostileId.slice(0, 20)}`, {
          method,
          url: route(hostileId),
        });
      }
    }
    expect(tally.get(family)?.failures).toEqual([]);
  });

  it('REST: alert rules', { timeout: 120_000 }, async () => {
    const family = 'REST alert rules';
    const id = owner.project.id;
    const rules = `/api/v1/projects/${id}/alert-rules`;
    const kinds: Record<string, Kind> = {
      kind: 'enum',
      params: 'object',
      windowMinutes: 'integer',
      minTransactions: 'integer',
      cooldownMinutes: 'integer',
      thresholdPercent: 'float',
      hours: 'integer',
      paused: 'boolean',
    };
    const params = { windowMinutes: 15, thresholdPercent: 5, minTransactions: 10 };
    const rule = { name: 'Failing', kind: 'tx_fail_rate', params, channelIds: [], cooldownMinutes: 60 };
    await jsonRouteCases(family, 'POST', rules, rule, kinds);
    await jsonRouteCases(
      family,
      'POST',
      `${rules}/preview`,
      { kind: 'no_events', params: { hours: 2 } },
      kinds,
    );
    const created = await send({
      method: 'POST',
      url: rules,
      payload: JSON.stringify({ ...rule, kind: 'no_events', params: { hours: 2 } }),
    });
    expect(created.statusCode, created.body).toBe(201);
    await t.services.mail.flush();
    await markState();
    const ruleId = created.json().id as string;
    await jsonRouteCases(
      family,
      'PATCH',
      `${rules}/${ruleId}`,
      { params: { hours: 3 }, paused: true },
      kinds,
    );
    const byId: [string, (x: string) => string][] = [
      ['GET', (x) => `/api/v1/projects/${x}/alert-rules`],
      ['DELETE', (x) => `${rules}/${x}`],
      ['GET', (x) => `${rules}/${x}/firings`],
      ['PATCH', (x) => `${rules}/${x}`],
    ];
    for (const [method, url] of byId) {
      for (const hostileId of HOSTILE_IDS) {
        await expectRefused(family, `${method} ${url(':id')} id=${hostileId.slice(0, 20)}`, {
          method,
          url: url(hostileId),
          ...(method === 'PATCH' ? { payload: JSON.stringify({ paused: true }) } : {}),
        });
      }
    }
    expect(tally.get(family)?.failures).toEqual([]);
  });

  it('ingestion: POST /api/v1/events', { timeout: 300_000 }, async () => {
    const family = 'ingestion';
    const kindAt = (path: (string | number)[], type: string): Kind => {
      const key = String(path.at(-1));
      if (path.length === 1) return path[0] === 'events' ? 'object' : 'text';
      if (path.length === 2 || ['utm', 'wallet', 'walletState', 'error', 'props', 'traits'].includes(key)) {
        return 'object';
      }
      if (path.length === 4 && ['props', 'traits'].includes(String(path[2]))) return 'property';
      if (['ts', 'chainId', 'code'].includes(key)) return 'integer';
      const parent = String(path.at(-2));
      const isCleaned =
        (type === 'error' && path.length === 3 && (key === 'message' || key === 'stack')) ||
        (parent === 'error' && key === 'message') ||
        (parent === 'wallet' && (key === 'provider' || key === 'rdns')) ||
        (parent === 'walletState' && key === 'provider');
      if (isCleaned) return 'cleaned';
      const isEventField = path.length === 3;
      if (isEventField && ['type', 'stage', 'kind', 'source'].includes(key)) return 'enum';
      if (isEventField && key === 'method' && type === 'signature') return 'enum';
      return 'text';
    };
    for (const event of everyEventShape()) {
      const batch = { apiKey: owner.project.apiKey, sdkVersion: '2.0.0', events: [event] };
      for (const path of leafPaths(batch)) {
        if (path[0] === 'apiKey') continue;
        const kind = kindAt(path, event.type);
        for (const { label, value } of HOSTILE_VALUES[kind]) {
          await expectRefused(family, `${event.type} ${path.join('.')}=${label}`, {
            method: 'POST',
            url: '/api/v1/events',
            payload: serialize(replaceAt(batch, path, value)),
            contentType: 'text/plain',
          });
        }
        if (kind !== 'cleaned') continue;
        // Taken with U+FFFD in place of what the stores cannot hold, the batch with it (ADR 169; stored so
        // in third-party-text.test.ts). Sent as a bot's, which is checked like any batch, then not stored:
        // this file's event store stays empty.
        for (const { label, value } of UNSTORABLE) {
          const answer = await send({
            method: 'POST',
            url: '/api/v1/events',
            payload: serialize(replaceAt(batch, path, value)),
            contentType: 'text/plain',
            headers: { 'user-agent': 'curl/8.5.0' },
          });
          expect(answer.statusCode, `${event.type} ${path.join('.')}=${label}: ${answer.body}`).toBe(200);
        }
      }
    }
    const valid = JSON.stringify({ apiKey: owner.project.apiKey, events: [everyEventShape()[0]] });
    for (const { label, payload } of HOSTILE_BODIES) {
      await expectRefused(family, `body ${label}`, {
        method: 'POST',
        url: '/api/v1/events',
        payload,
        contentType: 'text/plain',
      });
    }
    for (const contentType of [
      'application/xml',
      'multipart/form-data; boundary=x',
      'application/x-www-form-urlencoded',
    ]) {
      await expectRefused(family, `as ${contentType}`, {
        method: 'POST',
        url: '/api/v1/events',
        payload: valid,
        contentType,
      });
    }
    await expectRefused(family, '2 MB body', {
      method: 'POST',
      url: '/api/v1/events',
      payload: JSON.stringify({
        apiKey: owner.project.apiKey,
        events: Array.from({ length: 2000 }, () => everyEventShape()[0]),
      }),
      contentType: 'text/plain',
    });
    for (const apiKey of [12, null, 'polyflow\u0000value', 'pf_\ud800', 'a'.repeat(1024 * 1024)]) {
      await expectRefused(family, `apiKey=${String(apiKey).slice(0, 12)}`, {
        method: 'POST',
        url: '/api/v1/events',
        payload: JSON.stringify({ apiKey, events: [everyEventShape()[0]] }),
        contentType: 'text/plain',
      });
    }
    expect(tally.get(family)?.failures).toEqual([]);
  });

  it('GraphQL: every query and mutation', { timeout: 600_000 }, async () => {
    // Introspected over HTTP, shallow enough for the depth limit: names, kinds and wrapped types.
    type TypeRef = { kind: string; name: string | null; ofType: TypeRef | null };
    type FullType = {
      kind: string;
      name: string;
      enumValues: { name: string }[] | null;
      inputFields: { name: string; type: TypeRef }[] | null;
      fields: { name: string; type: TypeRef; args: { name: string; type: TypeRef }[] }[] | null;
    };
    const ref = 'kind name ofType { kind name ofType { kind name ofType { kind name } } }';
    const introspection = await send({
      method: 'POST',
      url: '/api/graphql',
      payload: JSON.stringify({
        query: `{ __schema { queryType { name } mutationType { name } types { kind name enumValues { name } inputFields { name type { ${ref} } } fields { name type { ${ref} } args { name type { ${ref} } } } } } }`,
      }),
    });
    expect(introspection.statusCode, introspection.body.slice(0, 300)).toBe(200);
    const { __schema: model } = (
      introspection.json() as {
        data: {
          __schema: { queryType: { name: string }; mutationType: { name: string } | null; types: FullType[] };
        };
      }
    ).data;
    const typeNamed = (name: string | null) => model.types.find((type) => type.name === name) as FullType;
    const named = (type: TypeRef): TypeRef => (type.ofType ? named(type.ofType) : type);
    const render = (type: TypeRef): string =>
      type.kind === 'NON_NULL'
        ? `${render(type.ofType as TypeRef)}!`
        : type.kind === 'LIST'
          ? `[${render(type.ofType as TypeRef)}]`
          : String(type.name);
    const now = Date.now();

    function kindOf(type: TypeRef, name: string): Kind {
      const base = named(type);
      if (base.kind === 'INPUT_OBJECT') return 'object';
      if (base.kind === 'ENUM') return 'enum';
      if (base.name === 'DateTime') return 'date';
      if (base.name === 'Int') return 'integer';
      if (base.name === 'Float') return 'float';
      if (base.name === 'Boolean') return 'boolean';
      // Ids of things (a project, an incident), not values the SDK names (userId, sessionId).
      if (base.name === 'UUID' || base.name === 'ID' || name === 'id' || name === 'projectId') return 'id';
      return 'text';
    }

    /** A plausible value for a position (the owner's project, a recent week, the first enum value). */
    function sample(type: TypeRef, name: string): unknown {
      if (type.kind === 'NON_NULL') return sample(type.ofType as TypeRef, name);
      if (type.kind === 'LIST') return [sample(type.ofType as TypeRef, name)];
      const full = typeNamed(type.name);
      if (type.kind === 'ENUM') return full.enumValues?.[0]?.name;
      if (type.kind === 'INPUT_OBJECT') {
        return Object.fromEntries(
          (full.inputFields ?? [])
            .filter((field) => field.type.kind === 'NON_NULL')
            .map((field) => [field.name, sample(field.type, field.name)]),
        );
      }
      if (type.name === 'DateTime')
        return new Date(name === 'from' ? now - 7 * 86_400_000 : now).toISOString();
      if (type.name === 'Int' || type.name === 'Float') return 10;
      if (type.name === 'Boolean') return true;
      if (type.name === 'UUID') return '123e4567-e89b-12d3-a456-426614174000';
      if (/project/i.test(name) || name === 'id') return owner.project.id;
      return 'polyflow-value';
    }

    /** The type at `rest` inside a value of `type` (input object fields, list items). */
    function typeAt(type: TypeRef, rest: (string | number)[]): TypeRef {
      let current = type;
      for (const key of rest) {
        const unwrapped = current.kind === 'NON_NULL' ? (current.ofType as TypeRef) : current;
        if (unwrapped.kind === 'LIST') current = unwrapped.ofType as TypeRef;
        else
          current = typeNamed(unwrapped.name).inputFields?.find((field) => field.name === key)
            ?.type as TypeRef;
      }
      return current;
    }

    for (const [operation, root] of [
      ['query', typeNamed(model.queryType.name)],
      ['mutation', model.mutationType ? typeNamed(model.mutationType.name) : undefined],
    ] as const) {
      for (const field of root?.fields ?? []) {
        if (field.args.length === 0) continue;
        const family = operation === 'query' ? 'GraphQL queries' : 'GraphQL mutations (published SDK)';
        const selection = named(field.type).kind === 'OBJECT' ? '{ __typename }' : '';
        const document = `${operation} Hostile(${field.args.map((arg) => `$${arg.name}: ${render(arg.type)}`).join(', ')}) { ${field.name}(${field.args.map((arg) => `${arg.name}: $${arg.name}`).join(', ')}) ${selection} }`;
        const variables = Object.fromEntries(field.args.map((arg) => [arg.name, sample(arg.type, arg.name)]));
        const post = (vars: unknown) => serialize({ query: document, variables: vars });
        // Every position, the arguments themselves and everything inside input objects.
        const positions = field.args.flatMap((arg) => [
          { path: [arg.name], type: arg.type, name: arg.name, isRequired: arg.type.kind === 'NON_NULL' },
          ...leafPaths(variables[arg.name]).map((rest) => {
            const type = typeAt(arg.type, rest);
            return {
              path: [arg.name, ...rest],
              type,
              name: String(rest.at(-1)),
              isRequired: type.kind === 'NON_NULL',
            };
          }),
        ]);
        for (const { path, type, name, isRequired } of positions) {
          if (typeof path.at(-1) === 'number') continue;
          const values = HOSTILE_VALUES[kindOf(type, name)];
          for (const { label, value } of [
            ...values,
            ...(isRequired ? [{ label: 'null', value: null }] : []),
          ]) {
            await expectRefused(family, `${field.name} ${path.join('.')}=${label}`, {
              method: 'POST',
              url: '/api/graphql',
              payload: post(replaceAt(variables, path, value)),
            });
          }
        }
        for (const { label, payload } of HOSTILE_BODIES) {
          await expectRefused(family, `${field.name} body ${label}`, {
            method: 'POST',
            url: '/api/graphql',
            payload,
          });
        }
        for (const contentType of HOSTILE_CONTENT_TYPES) {
          await expectRefused(family, `${field.name} as ${contentType}`, {
            method: 'POST',
            url: '/api/graphql',
            payload: post(variables),
            contentType,
          });
        }
        await expectRefused(family, `${field.name} variables __proto__`, {
          method: 'POST',
          url: '/api/graphql',
          payload: `{"query":${JSON.stringify(document)},"variables":{"__proto__":{"isAdmin":true}}}`,
        });
        await expectRefused(family, `${field.name} 2 MB document`, {
          method: 'POST',
          url: '/api/graphql',
          payload: JSON.stringify({ query: `${document} #${'a'.repeat(2 * 1024 * 1024)}`, variables }),
        });
      }
    }
    for (const query of ['', '{}', '12', 'query { __typename', '{ nope }', `{ ${'a { '.repeat(200)}`]) {
      await expectRefused('GraphQL queries', `document ${query.slice(0, 20)}`, {
        method: 'POST',
        url: '/api/graphql',
        payload: JSON.stringify({ query }),
      });
    }
    const graphqlFailures = [...tally]
      .filter(([family]) => family.startsWith('GraphQL'))
      .flatMap(([, entry]) => entry.failures);
    expect(graphqlFailures).toEqual([]);
  });

  it('wrote nothing to the event store', async () => {
    await t.services.events.flush();
    // Every project's events: the whole table of the DuckDB adapter.
    const connection = await asDuckDbEventStore(t.services.eventStore).connect();
    try {
      const reader = await connection.runAndReadAll('SELECT count(*)::INTEGER FROM events');
      expect(reader.getRows()[0]?.[0]).toBe(0);
    } finally {
      connection.closeSync();
    }
  });
});
