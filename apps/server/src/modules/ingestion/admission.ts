import { parse as parseJson } from 'secure-json-parse';
import { AppError, badRequest, rateLimited } from '../../errors.ts';
import { type BacklogState, ingestionBacklog } from '../ingest-log/service.ts';
import { createKeyCache, type KeyCacheDeps, type KeyProject } from './key-cache.ts';
import { isHostWhitelisted, originHost } from './origin.ts';
import { createRateLimiter } from './rate-limiter.ts';

/**
 * A request whose key and Origin passed: the project it writes to, the host it came from, and the
 * project's ignored wallet codes as of the key cache's last look-up (ADR 067).
 */
export type IngestAccess = { projectId: string; originHost: string; ignoredWalletCodes: readonly number[] };

/**
 * Admission's one answer: the request is let in (its project, and for a batch its parsed body), or refused
 * with the error to answer (status, errorCode, Retry-After). `pageMayRead`: the refusal may carry
 * `Access-Control-Allow-Origin` (the backlog's and the rate's, which name no project; and every refusal once
 * the Origin passed the whitelist), so that the page backs off instead of seeing a network error.
 */
export type Admission =
  | { admitted: true; access: IngestAccess; body: unknown }
  | { admitted: false; refusal: AppError; pageMayRead: boolean };

export type AdmissionDeps = {
  projects: KeyCacheDeps;
  /** The ingestion log's back-pressure (service.ts), asked once per request. */
  log: { backlog(): BacklogState; isOverShare(projectId: string): boolean };
  /** Per project key; generous: it stops a runaway client, not a busy dapp. */
  rateLimit: { eventsPerMinute: number };
};

export type AdmissionPart = ReturnType<typeof createAdmission>;

const refused = (refusal: AppError, pageMayRead: boolean): Admission => ({
  admitted: false,
  refusal,
  pageMayRead,
});

/**
 * The API key of a body that begins as the SDK's do (`{"apiKey":"…",`), without parsing the rest; undefined
 * for any other shape (the request is then parsed whole, as always).
 */
function leadingApiKey(body: unknown): string | undefined {
  if (typeof body !== 'string' || !body.startsWith('{"apiKey":"')) return undefined;
  const end = body.indexOf('"', 11);
  if (end < 0 || end > 11 + 128) return undefined;
  const key = body.slice(11, end);
  return key.includes('\\') ? undefined : key;
}

/** The body as JSON, or the 400 it gets; the key travels in it, so admission reads it. */
function parseBody(body: unknown): { ok: true; value: unknown } | { ok: false; error: AppError } {
  try {
    // As Fastify's JSON bodies: a `__proto__` or `constructor.prototype` key is refused, not dropped (zod
    // would drop one inside a custom event's properties and store the rest).
    const value: unknown = parseJson(typeof body === 'string' ? body : '', undefined, {
      protoAction: 'error',
      constructorAction: 'error',
    });
    return { ok: true, value };
  } catch (error) {
    return {
      ok: false,
      error: badRequest(
        error instanceof SyntaxError && /forbidden prototype/.test(error.message)
          ? 'Request body holds a "__proto__" or "constructor.prototype" key, which Polyflow refuses.'
          : 'Request body is not valid JSON.',
      ),
    };
  }
}

function apiKeyOf(body: unknown): { ok: true; apiKey: string } | { ok: false; error: AppError } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return {
      ok: false,
      error: badRequest('Invalid batch: the body must be a JSON object {apiKey, events}.', [
        { path: '', message: 'expected an object' },
      ]),
    };
  }
  const { apiKey } = body as { apiKey?: unknown };
  if (typeof apiKey !== 'string') {
    return {
      ok: false,
      error: badRequest('Invalid batch: apiKey is required (a string).', [
        { path: 'apiKey', message: 'expected a string' },
      ]),
    };
  }
  return { ok: true, apiKey };
}

/** 401 for an unknown or revoked key, 403 when the Origin's host is not on the project's whitelist. */
function accessOf(project: KeyProject | null, origin: string | undefined): IngestAccess | AppError {
  if (!project) return new AppError(401, 'NON_EXISTENT_API_KEY', 'Unknown or revoked API key.');
  const host = originHost(origin);
  if (!host) {
    return new AppError(
      403,
      'ORIGIN_NOT_WHITELISTED',
      'Events are accepted only from a page whose Origin is whitelisted; this request has no Origin.',
    );
  }
  if (!isHostWhitelisted(host, project.whitelistedDomains)) {
    return new AppError(403, 'ORIGIN_NOT_WHITELISTED', `${host} is not on this project's domain whitelist.`);
  }
  return { projectId: project.id, originHost: host, ignoredWalletCodes: project.ignoredWalletCodes };
}

/**
 * Admission of ingestion requests (ADR 075): key → project (cached, key-cache.ts), Origin ∈ whitelist, the
 * project's rate, the backlog's room; one call per request, one answer (`Admission`). The backlog is read
 * once per request.
 */
export function createAdmission(deps: AdmissionDeps) {
  const keys = createKeyCache(deps.projects);
  const limiter = createRateLimiter(deps.rateLimit);

  const findProject = (apiKey: unknown): Promise<KeyProject | null> =>
    typeof apiKey === 'string' && apiKey.length <= 128 ? keys.find(apiKey) : Promise.resolve(null);

  /** The checks after the key: whitelist (no CORS), rate and backlog room (the page may read them). */
  function admitProject(
    project: KeyProject | null,
    origin: string | undefined,
    events: number,
    backlog: BacklogState,
    body: unknown,
  ): Admission {
    const access = accessOf(project, origin);
    if (access instanceof AppError) return refused(access, false);
    // Refused with 429, and a Retry-After of when the bucket will hold them, once the project's bucket is empty.
    const waitMs = limiter.take(access.projectId, Math.max(1, events));
    if (waitMs > 0) {
      const seconds = Math.max(1, Math.ceil(waitMs / 1000));
      return refused(rateLimited(`Too many events for this API key; retry in ${seconds} s.`, seconds), true);
    }
    if (backlog === 'full' || (backlog === 'over' && deps.log.isOverShare(access.projectId))) {
      return refused(ingestionBacklog(), true);
    }
    return { admitted: true, access, body };
  }

  return {
    /**
     * `POST /api/v1/events`: the body as received (text). While the store catches up (ADR 034): beyond
     * twice the backlog's limit every request is refused before anything else, so that refusals cost the
     * loader no CPU; beyond the limit, a request of a project holding its share of the backlog is refused
     * as soon as its key (the SDK sends it first) names the project, and the others go on. Then the body
     * is parsed (400), its key looked up (401), its Origin checked (403), its events counted against the
     * rate (429) and the backlog's room (503).
     */
    async admitBatch(body: unknown, origin: string | undefined): Promise<Admission> {
      const backlog = deps.log.backlog();
      if (backlog === 'full') return refused(ingestionBacklog(), true);
      let early: { apiKey: string; project: KeyProject | null } | undefined;
      if (backlog === 'over') {
        const apiKey = leadingApiKey(body);
        if (apiKey !== undefined) {
          // A failed look-up here refuses nothing: the request goes on as any other.
          const project = await findProject(apiKey).catch(() => undefined);
          if (project !== undefined) {
            early = { apiKey, project };
            const access = accessOf(project, origin);
            if (!(access instanceof AppError) && deps.log.isOverShare(access.projectId)) {
              return refused(ingestionBacklog(), true);
            }
          }
        }
      }
      const parsed = parseBody(body);
      if (!parsed.ok) return refused(parsed.error, false);
      const key = apiKeyOf(parsed.value);
      if (!key.ok) return refused(key.error, false);
      const project = early?.apiKey === key.apiKey ? early.project : await findProject(key.apiKey);
      const { events } = parsed.value as { events?: unknown };
      return admitProject(project, origin, Array.isArray(events) ? events.length : 1, backlog, parsed.value);
    },

    /** One event of the published SDK's GraphQL mutations: the key from `X-API-KEY`; the same rules. */
    async admitEvent(apiKey: unknown, origin: string | undefined): Promise<Admission> {
      const project = await findProject(apiKey);
      return admitProject(project, origin, 1, deps.log.backlog(), undefined);
    },

    /** Stops listening to project changes. */
    close(): void {
      keys.close();
    },
  };
}
