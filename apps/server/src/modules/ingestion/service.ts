import type { IngestEvent } from '@polyflow/contracts/events';
import type { IntegrationStatus } from '@polyflow/contracts/integration';
import { AppError, badRequest, rateLimited, zodIssues } from '../../errors.ts';
import type { ProjectAccess } from '../../lib/access.ts';
import { type Clock, systemClock } from '../../lib/clock.ts';
import type { CustomEventQuestions } from '../event-store/custom-event-questions.ts';
import type { EventRow } from '../event-store/event-row.ts';
import type { EventWriter, IngestionQuestions } from '../event-store/event-store.ts';
import { createBatchValidator } from './batch-validator.ts';
import { assertClientTimes } from './client-time.ts';
import { type ClientFacts, createGeoLookup, createUserAgentParser, type GeoLookup } from './enrich.ts';
import { type CommitResult, createGroupCommit, type GroupCommitOptions } from './group-commit.ts';
import { createKeyCache, type KeyCacheDeps } from './key-cache.ts';
import { createLiveFeed, type LiveFeedOptions } from './live-feed.ts';
import { batchEntry, rowsEntry } from './log-entries.ts';
import { createLogWriter, type LogWriterOptions } from './log-writer.ts';
import { isHostWhitelisted, originHost } from './origin.ts';
import { createRateLimiter } from './rate-limiter.ts';
import { assertStorable } from './storable-numbers.ts';
import { createVocabularyLimits } from './vocabulary.ts';

/** Source maps as ingestion sees them (modules/sourcemaps' symbolicator, wired by app.ts). */
export type TopFrameMapper = {
  /** Whether the project has maps for the release: answered from memory, without I/O. */
  hasMaps(projectId: string, release: string): boolean;
  /** The stack's top frame mapped (`file:function`), or null when no map covers it. */
  originalTopFrame(projectId: string, release: string, stack: string): Promise<string | null>;
};

export type EventServiceDeps = {
  /** Error events of releases with source maps are fingerprinted on their original top frame (ADR 066). */
  topFrames?: TopFrameMapper;
  /** The event store: the loader writes through it, the integration card and the legacy status update read. */
  store: Pick<
    EventWriter,
    'loadSegment' | 'isRecordError' | 'deleteProjectEvents' | 'deleteWalletEvents' | 'deleteUserEvents'
  > &
    Pick<IngestionQuestions, 'integrationSummary' | 'findTxEvent'> &
    Pick<CustomEventQuestions, 'customEventVocabulary'>;
  projects: KeyCacheDeps & ProjectAccess;
  clock?: Clock;
  /** Per project key; generous: it stops a runaway client, not a busy dapp. */
  rateLimit: { eventsPerMinute: number };
  geo?: GeoLookup;
  /** Told of every commit (the ingestion rate on /metrics). */
  metrics?: { committed(result: CommitResult): void };
  groupCommit?: Omit<GroupCommitOptions, 'log' | 'onCommitted'>;
  /** Bounds of the live streams (`GET /api/v1/projects/:id/live`). */
  live?: LiveFeedOptions;
  /**
   * Acknowledge on the ingestion log in this directory (`DATA_DIR/ingest-log`) and load the store in
   * the background (ADR 003).
   */
  log: {
    dir: string;
    loadIntervalMs?: number;
    onLoadError?(error: unknown): void;
    onQuarantined?: LogWriterOptions['onQuarantined'];
    maxBacklogBytes?: number;
  };
};

/** What the server adds to every event of a request. */
export type RequestFacts = {
  projectId: string;
  originHost: string;
  receivedAt: number;
  sdk: string | null;
  country: string | null;
  browser: string | null;
  os: string | null;
  device: string | null;
};

/**
 * A request whose key and Origin passed: the project it writes to, the host it came from, and the
 * project's ignored wallet codes as of the key cache's last look-up (ADR 067).
 */
export type IngestAccess = { projectId: string; originHost: string; ignoredWalletCodes: readonly number[] };
export type ClientInfo = { userAgent: string | undefined; ip: string };

export type EventService = ReturnType<typeof createEventService>;

const DAY_MS = 86_400_000;
/** A date, or a date and time with an optional zone: nothing more (Date.parse forgives trailing junk). */
const ISO_TIME = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})?)?$/;
/** About half a million events acknowledged but not loaded: beyond it, clients are asked to come back. */
const DEFAULT_MAX_BACKLOG_BYTES = 256 * 1024 * 1024;

/** The back-pressure refusal (ADR 034): the client keeps its events and retries. */
export function ingestionBacklog(): AppError {
  return new AppError(
    503,
    'INGESTION_BACKLOG',
    'Events are arriving faster than they can be stored; retry in a few seconds.',
    undefined,
    5,
  );
}

function describeBatchError(issues: ReturnType<typeof zodIssues>): string {
  const first = issues[0];
  if (!first) return 'Invalid batch.';
  const match = /^events\.(\d+)(?:\.(.+))?$/.exec(first.path);
  if (match) {
    const field = match[2] ? `field "${match[2]}"` : 'the event';
    return `Invalid batch: event ${match[1]}, ${field}: ${first.message}.`;
  }
  return `Invalid batch: ${first.path || 'body'}: ${first.message}.`;
}

/** Ingestion rules: key, Origin whitelist, rate, validation, enrichment, bots, then group commit. */
export function createEventService(deps: EventServiceDeps) {
  const clock = deps.clock ?? systemClock;
  const keys = createKeyCache(deps.projects);
  const limiter = createRateLimiter(deps.rateLimit);
  const vocabulary = createVocabularyLimits(deps.store, () => clock().getTime());
  const parseUserAgent = createUserAgentParser();
  const geo = deps.geo ?? createGeoLookup();
  const validateBatch = createBatchValidator();
  const log = createLogWriter({
    ...deps.log,
    load: (file) => deps.store.loadSegment(file),
    isRecordError: (error) => deps.store.isRecordError(error),
  });
  const maxBacklogBytes = deps.log.maxBacklogBytes ?? DEFAULT_MAX_BACKLOG_BYTES;
  function isOverShare(projectId: string): boolean {
    return log.pendingBytesOf(projectId) * Math.max(1, log.pendingProjects()) >= maxBacklogBytes;
  }
  const live = createLiveFeed(deps.live);
  const writer = createGroupCommit({
    log,
    ...deps.groupCommit,
    // Straight from the commit, not from the loader: the live view must not wait for the store's 3 s.
    onCommitted(entry, isNew) {
      if (!live.isWatched(entry.project)) return;
      const rows = entry.rows();
      live.publish(entry.project, isNew.every(Boolean) ? rows : rows.filter((_, index) => isNew[index]));
    },
  });

  /** Everything acknowledged so far, readable in the store. */
  async function flush(): Promise<void> {
    await writer.drain();
    await log.flush();
  }

  function requestFacts(
    access: IngestAccess,
    client: ClientInfo,
    sdk: string | null,
  ): RequestFacts & ClientFacts {
    const ua = parseUserAgent(client.userAgent);
    return {
      projectId: access.projectId,
      originHost: access.originHost,
      receivedAt: clock().getTime(),
      sdk,
      country: geo(client.ip),
      ...ua,
    };
  }

  /**
   * The original top frames of the batch's error events, for a release with source maps only: other
   * batches pay one lookup in memory. A map that cannot be read leaves the minified frame.
   */
  async function mappedTopFrames(
    projectId: string,
    release: string,
    events: readonly IngestEvent[],
  ): Promise<Map<IngestEvent, string> | undefined> {
    const mapper = deps.topFrames;
    if (!mapper?.hasMaps(projectId, release)) return undefined;
    const frames = new Map<IngestEvent, string>();
    await Promise.all(
      events.map(async (event) => {
        if (event.type !== 'error' || !event.stack) return;
        const frame = await mapper.originalTopFrame(projectId, release, event.stack).catch(() => null);
        if (frame) frames.set(event, frame);
      }),
    );
    return frames;
  }

  return {
    /** 401 for an unknown or revoked key, 403 when the Origin's host is not on the project's whitelist. */
    async authorize(apiKey: unknown, origin: string | undefined): Promise<IngestAccess> {
      const project = typeof apiKey === 'string' && apiKey.length <= 128 ? await keys.find(apiKey) : null;
      if (!project) {
        throw new AppError(401, 'NON_EXISTENT_API_KEY', 'Unknown or revoked API key.');
      }
      const host = originHost(origin);
      if (!host) {
        throw new AppError(
          403,
          'ORIGIN_NOT_WHITELISTED',
          'Events are accepted only from a page whose Origin is whitelisted; this request has no Origin.',
        );
      }
      if (!isHostWhitelisted(host, project.whitelistedDomains)) {
        throw new AppError(
          403,
          'ORIGIN_NOT_WHITELISTED',
          `${host} is not on this project's domain whitelist.`,
        );
      }
      return { projectId: project.id, originHost: host, ignoredWalletCodes: project.ignoredWalletCodes };
    },

    /**
     * Back-pressure (ADR 007, shared fairly since ADR 034), from the bytes the ingestion log holds not yet
     * loaded into the store: `clear` up to `maxBacklogBytes`; beyond it `over`, when a project that holds
     * at least its share of that limit (the limit divided among the projects waiting) is refused, so that
     * one project's flood does not refuse the others; `full` beyond twice the limit, when every request
     * is. A refused client keeps its batches and retries (the SDK does, with back-off) instead of the log
     * growing without bound.
     */
    backlog(): 'clear' | 'over' | 'full' {
      const pending = log.pendingBytes();
      if (pending <= maxBacklogBytes) return 'clear';
      return pending > 2 * maxBacklogBytes ? 'full' : 'over';
    },

    /** While the backlog is `over`: whether this project holds its share of the limit or more. */
    isOverShare,

    /** Throws 503 INGESTION_BACKLOG (Retry-After 5 s) when the backlog refuses this project's events now. */
    assertBacklogRoom(projectId: string): void {
      const state = this.backlog();
      if (state === 'full' || (state === 'over' && isOverShare(projectId))) throw ingestionBacklog();
    },

    /** Refuses with 429, and a Retry-After of when the bucket will hold them, once the project's bucket is empty. */
    takeRate(access: IngestAccess, events: number): void {
      const waitMs = limiter.take(access.projectId, Math.max(1, events));
      if (waitMs > 0) {
        const seconds = Math.max(1, Math.ceil(waitMs / 1000));
        throw rateLimited(`Too many events for this API key; retry in ${seconds} s.`, seconds);
      }
    },

    /** A parsed JSON body of `POST /api/v1/events`; answers once the batch is committed. */
    async ingestBatch(access: IngestAccess, body: unknown, client: ClientInfo): Promise<CommitResult> {
      const parsed = validateBatch(body);
      if (!parsed.success) {
        const issues = zodIssues(parsed.error);
        throw badRequest(describeBatchError(issues), issues.slice(0, 20));
      }
      const batch = parsed.data;
      // Every event is checked before anything is written: a bad event refuses the whole batch.
      batch.events.forEach(assertStorable);
      const facts = requestFacts(
        access,
        client,
        batch.sdkVersion ? `polyflow/${batch.sdkVersion}` : 'polyflow',
      );
      assertClientTimes(batch.events, facts.receivedAt);
      if (facts.isBot) return { accepted: 0, duplicates: 0 };
      await vocabulary.check(facts.projectId, batch.events);
      const request = {
        project: facts.projectId,
        origin: facts.originHost,
        receivedAt: facts.receivedAt,
        sdk: facts.sdk,
        country: facts.country,
        browser: facts.browser,
        os: facts.os,
        device: facts.device,
        release: batch.release ?? null,
      };
      const topFrames = batch.release
        ? await mappedTopFrames(facts.projectId, batch.release, batch.events)
        : undefined;
      const result = await writer.submit(
        batchEntry(request, batch.events, access.ignoredWalletCodes, topFrames),
      );
      deps.metrics?.committed(result);
      return result;
    },

    /** For the published SDK's GraphQL mutations: the request's facts, or null for a bot. */
    legacyFacts(access: IngestAccess, client: ClientInfo): RequestFacts | null {
      const facts = requestFacts(access, client, 'polyflow-legacy/1.0.25');
      return facts.isBot ? null : facts;
    },

    /** Rows of one project (the published SDK's mutations), with the codes it ignored at `authorize`. */
    async commitRows(access: IngestAccess, rows: readonly EventRow[]): Promise<CommitResult> {
      const result = await writer.submit(rowsEntry(rows, access.ignoredWalletCodes));
      deps.metrics?.committed(result);
      return result;
    },

    /** Bytes acknowledged in the ingestion log and not loaded yet (metrics). */
    backlogBytes: (): number => log.pendingBytes(),

    /** Seconds the oldest acknowledged event not loaded yet may have waited (metrics). */
    loaderLagSeconds: (): number => log.lagMs() / 1000,

    // Reads of what was just ingested (the published SDK updates a transaction it sent a moment ago).
    async findTxEvent(projectId: string, id: string) {
      await flush();
      return deps.store.findTxEvent(projectId, id);
    },

    /** Resolves once every acknowledged event is in the store (tests; reads of fresh events). */
    flush,

    /** A deleted project's events, those acknowledged but not loaded yet included; its live streams close. */
    async deleteProjectEvents(projectId: string): Promise<void> {
      live.closeProjectStreams(projectId);
      await flush();
      await deps.store.deleteProjectEvents(projectId);
    },

    /**
     * A forgotten wallet's events (a data-subject request), those acknowledged but not loaded yet
     * included; answers how many were deleted.
     */
    async deleteWalletEvents(projectId: string, wallet: string): Promise<number> {
      await flush();
      return deps.store.deleteWalletEvents(projectId, wallet);
    },

    /** A forgotten SDK user's events, like `deleteWalletEvents`. */
    async deleteUserEvents(projectId: string, userId: string): Promise<number> {
      await flush();
      return deps.store.deleteUserEvents(projectId, userId);
    },

    /** For the health check: what waits in the ingestion log, since when, and what was set aside. */
    loaderState(): { pendingBytes: number; oldestPendingAt: number | undefined; quarantined: number } {
      return {
        pendingBytes: log.pendingBytes(),
        oldestPendingAt: log.oldestPendingAt(),
        quarantined: log.quarantined().count,
      };
    },

    /**
     * The live streams of `GET /api/v1/projects/:id/live`. `live.closeStreamsOf(userId, projectId)` closes
     * a user's streams on a project at once (`ACCESS_ENDED`): for when a member loses access.
     */
    live,
    /** The server's clock, epoch ms (the live streams' session expiry). */
    now: (): number => clock().getTime(),
    /** Membership (others: 404) and the caps (429), checked before the route writes the stream's head. */
    async assertLiveAllowed(userId: string, projectId: string): Promise<void> {
      await deps.projects.getProjectFor(userId, projectId);
      live.assertRoom(userId, projectId);
    },
    /** Whether the user is still a member (asked at each heartbeat of an open stream: a removal ends it). */
    async isStillMember(userId: string, projectId: string): Promise<boolean> {
      try {
        await deps.projects.getProjectFor(userId, projectId);
        return true;
      } catch (error) {
        if (error instanceof AppError && error.status === 404) return false;
        throw error;
      }
    },

    /** What the console's "Test SDK Integration" card shows; members only (others: 404). */
    async integrationStatus(
      userId: string,
      projectId: string,
      since: string | undefined,
    ): Promise<IntegrationStatus> {
      let sinceDate = new Date(clock().getTime() - DAY_MS);
      if (since !== undefined) {
        sinceDate = new Date(since);
        if (!ISO_TIME.test(since) || Number.isNaN(sinceDate.getTime())) {
          throw badRequest('since must be an ISO 8601 time, e.g. 2024-03-01T12:00:00Z.', [
            { path: 'since', message: 'expected an ISO 8601 time' },
          ]);
        }
      }
      const project = await deps.projects.getProjectFor(userId, projectId);
      await flush();
      const summary = await deps.store.integrationSummary(project.id, sinceDate);
      return {
        hasApiKey: project.apiKey !== null,
        whitelistedDomains: project.whitelistedDomains,
        eventsSince: summary.eventsSince,
        lastEvent: summary.lastEvent && {
          receivedAt: summary.lastEvent.receivedAt.toISOString(),
          origin: summary.lastEvent.origin,
          type: summary.lastEvent.type,
        },
        origins: summary.origins.map((origin) => ({
          origin: origin.origin,
          events: origin.events,
          lastReceivedAt: origin.lastReceivedAt.toISOString(),
        })),
      };
    },

    /** Whether the geo-IP database is in memory: read on the first event that needs a country. */
    geoIpLoaded(): boolean {
      return (geo as Partial<ReturnType<typeof createGeoLookup>>).isLoaded?.() ?? true;
    },

    /** Answers every waiting request and loads the whole log into the store (which stays open). */
    async close(): Promise<void> {
      keys.close();
      await writer.drain();
      await log.close();
    },
  };
}
