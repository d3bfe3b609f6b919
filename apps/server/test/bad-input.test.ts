import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiClient, type RequestOptions } from './support/client.ts';
import { ENGINES, useTestApp } from './support/harness.ts';
import { type SeededProject, seed, snapshot } from './support/seed.ts';

type Method = 'POST' | 'PATCH' | 'DELETE';
type Field = {
  name: string;
  valid: string /** Whether any string in it could be valid (passwords, names). */;
  acceptsAnyText?: boolean;
};
type Route = { method: Method; path: (ctx: SeededProject) => string; auth: boolean; fields: Field[] };

const EMAIL: Field = { name: 'email', valid: 'someone@example.com' };
const TOKEN: Field = { name: 'token', valid: 'Q'.repeat(43) };

/** Every console mutation; `valid` values are well-formed but change nothing (unknown email, wrong password…). */
const ROUTES: Record<string, Route> = {
  register: {
    method: 'POST',
    path: () => 'register',
    auth: false,
    fields: [EMAIL, { name: 'password', valid: 'a long enough password', acceptsAnyText: true }],
  },
  verify: { method: 'POST', path: () => 'register/verify', auth: false, fields: [TOKEN] },
  resend: { method: 'POST', path: () => 'register/resend', auth: false, fields: [EMAIL] },
  login: {
    method: 'POST',
    path: () => 'login',
    auth: false,
    fields: [EMAIL, { name: 'password', valid: 'a long enough password' }],
  },
  forgot: { method: 'POST', path: () => 'forgot-password', auth: false, fields: [EMAIL] },
  reset: {
    method: 'POST',
    path: () => 'forgot-password/reset',
    auth: false,
    fields: [TOKEN, { name: 'newPassword', valid: 'a long enough password', acceptsAnyText: true }],
  },
  createProject: {
    method: 'POST',
    path: () => 'projects',
    auth: true,
    fields: [{ name: 'name', valid: 'A project', acceptsAnyText: true }],
  },
  createKey: {
    method: 'POST',
    path: ({ project }) => `projects/${project.id}/api-key`,
    auth: true,
    fields: [],
  },
  revokeKey: {
    method: 'DELETE',
    path: ({ project }) => `projects/${project.id}/api-key`,
    auth: true,
    fields: [],
  },
  addDomain: {
    method: 'PATCH',
    path: ({ project }) => `projects/${project.id}/domains/add`,
    auth: true,
    fields: [{ name: 'domain', valid: 'owner.example' }], // already whitelisted → 400, nothing written
  },
  deleteDomain: {
    method: 'PATCH',
    path: ({ project }) => `projects/${project.id}/domains/delete`,
    auth: true,
    fields: [{ name: 'domain', valid: 'never-added.example' }], // not on the list → 404
  },
  deleteProject: {
    method: 'DELETE',
    path: ({ project }) => `projects/${project.id}`,
    auth: true,
    fields: [],
  },
};

const INJECTIONS = [
  "' OR '1'='1",
  "x'); DROP TABLE users; --",
  '" OR ""="',
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '\u0000',
  'a\u0000b@example.com',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template-injection probe, on purpose.
  '${7*7}{{7*7}}',
  '../../../../etc/passwd',
  '%00%27%22',
  '\u202e\ufeff\ud800',
  'x'.repeat(10_000),
];
const WRONG_TYPES: unknown[] = [42, -1.5, true, false, null, {}, { $ne: '' }, ['a'], []];

function validBody(route: Route): Record<string, unknown> {
  return Object.fromEntries(route.fields.map((field) => [field.name, field.valid]));
}

type Variant = { label: string; options: RequestOptions; allow?: number[] };

function variants(route: Route, category: string): Variant[] {
  const valid = validBody(route);
  switch (category) {
    case 'malformed JSON':
      return [
        '{"email":',
        '{email: "a@b.c"}',
        '[1, 2',
        "{'a': 1}",
        'nul',
        '{"a":1}}',
        '\u0000',
        '{"a": "\\x"}',
      ].map((payload) => ({ label: payload, options: { payload } }));
    case 'wrong types':
      return route.fields.flatMap((field) =>
        WRONG_TYPES.map((value) => ({
          label: `${field.name}=${JSON.stringify(value)}`,
          options: { body: { ...valid, [field.name]: value } },
        })),
      );
    case 'arrays and scalars instead of an object':
      return [[valid], [], 'a string', 42, null, true].map((body) => ({
        label: JSON.stringify(body),
        options: { payload: JSON.stringify(body) },
      }));
    case 'huge bodies':
      return [
        { label: '20 KB', options: { body: { ...valid, padding: 'x'.repeat(20_000) } } },
        { label: '2 MB', options: { payload: JSON.stringify({ ...valid, padding: 'x'.repeat(2_000_000) }) } },
        {
          label: 'deeply nested',
          options: { payload: `${'{"a":'.repeat(2000)}1${'}'.repeat(2000)}` },
        },
      ];
    case 'missing fields':
      return [
        ...(route.fields.length > 0 ? [{ label: '{}', options: { body: {} } }] : []),
        ...route.fields.map((field) => {
          const { [field.name]: _omitted, ...rest } = valid;
          return { label: `without ${field.name}`, options: { body: rest } };
        }),
        ...route.fields.map((field) => ({
          label: `${field.name}=""`,
          options: { body: { ...valid, [field.name]: '' } },
        })),
      ];
    case 'unknown extra fields':
      return [
        { label: 'extra', options: { body: { ...valid, isAdmin: true } } },
        { label: 'ownerId', options: { body: { ...valid, ownerId: 'someone-else' } } },
        {
          label: '__proto__',
          options: { payload: JSON.stringify(valid).replace(/^{/, '{"__proto__":{"x":1},') },
        },
        {
          label: 'constructor.prototype',
          options: { payload: JSON.stringify(valid).replace(/^{/, '{"constructor":{"prototype":{"x":1}},') },
        },
      ];
    case 'injection strings':
      return route.fields
        .filter((field) => !field.acceptsAnyText)
        .flatMap((field) =>
          INJECTIONS.map((value) => ({
            label: `${field.name}=${JSON.stringify(value.slice(0, 30))}`,
            options: { body: { ...valid, [field.name]: value } },
          })),
        );
    default:
      throw new Error(category);
  }
}

const CATEGORIES = [
  'malformed JSON',
  'wrong types',
  'arrays and scalars instead of an object',
  'huge bodies',
  'missing fields',
  'unknown extra fields',
  'injection strings',
];

function expectCleanRejection(response: LightMyRequestResponse, label: string): void {
  const where = `${label} → ${response.statusCode} ${response.body.slice(0, 200)}`;
  expect(response.statusCode, where).toBeGreaterThanOrEqual(400);
  expect(response.statusCode, where).toBeLessThan(500);
  expect(response.headers['content-type'], where).toMatch(/^application\/json/);
  const body = response.json() as Record<string, unknown>;
  expect(typeof body.errorCode, where).toBe('string');
  expect(typeof body.message, where).toBe('string');
  expect(response.body, where).not.toMatch(/stack|at \w+ \(|node_modules|SQLITE|syntax error at/i);
}

describe.each(ENGINES)('bad input on %s', (engine) => {
  const t = useTestApp(engine);
  let ctx: SeededProject;

  beforeAll(async () => {
    ctx = await seed(t.services).user().verified().project('Owned').apiKey().domain('owner.example');
    // The accounts the "valid" values point at exist in a state where the request still changes nothing.
    await seed(t.services).user({ email: 'someone@example.com' }).verified();
  });

  const cases = Object.entries(ROUTES).flatMap(([name, route]) =>
    CATEGORIES.filter((category) => variants(route, category).length > 0).map(
      (category) => [name, category, route] as const,
    ),
  );

  it.each(cases)('%s: %s → 4xx JSON, nothing written', async (_name, category, route) => {
    const api = apiClient(t.app);
    const before = await snapshot(t.services);
    const mailsBefore = t.mail.messages.length;
    for (const variant of variants(route, category)) {
      const response = await api.request(route.method, route.path(ctx), {
        ...variant.options,
        token: route.auth ? ctx.user.token : undefined,
      });
      expectCleanRejection(response, variant.label);
    }
    expect(await snapshot(t.services)).toBe(before);
    await t.services.mail.flush();
    expect(t.mail.messages.length).toBe(mailsBefore);
  });

  it('answers 404 for hostile project ids in the path', async () => {
    const api = apiClient(t.app);
    const before = await snapshot(t.services);
    for (const id of [
      "' OR 1=1 --",
      '%00',
      '..%2f..%2f',
      `${ctx.project.id}'`,
      ctx.project.id.toUpperCase(),
      '1',
    ]) {
      const response = await api.post(`projects/${id}/api-key`, { token: ctx.user.token });
      expectCleanRejection(response, id);
      expect(response.statusCode).toBe(404);
    }
    expect(await snapshot(t.services)).toBe(before);
  });

  it('stores text fields that may hold anything verbatim, as data', async () => {
    const api = apiClient(t.app);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a template-injection probe, on purpose.
    const names = ["x'); DROP TABLE projects; --", '<script>alert(1)</script>', '${7*7} \u202e émoji 🚀'];
    for (const name of names) {
      const response = await api.post('projects', { token: ctx.user.token, body: { name } });
      expect(response.statusCode).toBe(201);
      expect(response.json().name).toBe(name);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
    }
    const listed = (await api.get('projects', { token: ctx.user.token }))
      .json()
      .projects.map((p: { name: string }) => p.name);
    expect(listed).toEqual(expect.arrayContaining(names));
    const control = await api.post('projects', { token: ctx.user.token, body: { name: 'bad\u0000name' } });
    expect(control.statusCode).toBe(400);
  });
});
