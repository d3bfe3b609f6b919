import type { IngestEvent } from '@polyflow/contracts/events';
import { badRequest, zodIssues } from '../../errors.ts';
import { type Clock, systemClock } from '../../lib/clock.ts';
import type { CustomEventQuestions } from '../event-store/custom-event-questions.ts';
import type { EventRow } from '../event-store/event-row.ts';
import type { CommitResult } from '../ingest-log/group-commit.ts';
import type { EventService } from '../ingest-log/service.ts';
import type { IngestAccess } from './admission.ts';
import { createBatchValidator } from './batch-validator.ts';
import { assertClientTimes } from './client-time.ts';
import { type ClientFacts, createGeoLookup, createUserAgentParser, type GeoLookup } from './enrich.ts';
import { batchEntry, rowsEntry } from './log-entries.ts';
import { assertStorable } from './storable-numbers.ts';
import { cleanThirdPartyText } from './third-party-text.ts';
import { createVocabularyLimits, type DroppedEvent } from './vocabulary.ts';

/** Source maps as ingestion sees them (modules/sourcemaps' symbolicator, wired by app.ts). */
export type TopFrameMapper = {
  /** Whether the project has maps for the release: answered from memory, without I/O. */
  hasMaps(projectId: string, release: string): boolean;
  /** The stack's top frame mapped (`file:function`), or null when no map covers it. */
  originalTopFrame(projectId: string, release: string, stack: string): Promise<string | null>;
};

export type IngestDeps = {
  /** Where an admitted batch is committed (the log and loader, service.ts). */
  log: Pick<EventService, 'submit'>;
  /** The custom events' vocabulary limits read the names a project already has. */
  store: Pick<CustomEventQuestions, 'customEventVocabulary'>;
  /** Error events of releases with source maps are fingerprinted on their original top frame (ADR 066). */
  topFrames?: TopFrameMapper;
  clock?: Clock;
  geo?: GeoLookup;
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

export type ClientInfo = { userAgent: string | undefined; ip: string };
export type IngestPart = ReturnType<typeof createIngest>;

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

/**
 * An admitted request's events: the compiled batch check, storable numbers and client times, enrichment
 * (user agent, geo-IP, bots), the custom events' vocabulary, source-mapped top frames, then the log.
 */
export function createIngest(deps: IngestDeps) {
  const clock = deps.clock ?? systemClock;
  const vocabulary = createVocabularyLimits(deps.store, () => clock().getTime());
  const parseUserAgent = createUserAgentParser();
  const geo = deps.geo ?? createGeoLookup();
  const validateBatch = createBatchValidator();

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
    /** A parsed JSON body of `POST /api/v1/events`; answers once the batch is committed. */
    async ingestBatch(
      access: IngestAccess,
      body: unknown,
      client: ClientInfo,
    ): Promise<CommitResult & { dropped?: DroppedEvent[] }> {
      cleanThirdPartyText(body);
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
      // Events over the custom events' limits are left out; the rest of the batch is stored (ADR 168).
      const dropped = await vocabulary.check(facts.projectId, batch.events);
      const skipped = new Set(dropped.map((drop) => drop.index));
      const events = skipped.size ? batch.events.filter((_, index) => !skipped.has(index)) : batch.events;
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
        ? await mappedTopFrames(facts.projectId, batch.release, events)
        : undefined;
      const committed =
        events.length > 0
          ? await deps.log.submit(batchEntry(request, events, access.ignoredWalletCodes, topFrames))
          : { accepted: 0, duplicates: 0 };
      return dropped.length ? { ...committed, dropped } : committed;
    },

    /** For the published SDK's GraphQL mutations: the request's facts, or null for a bot. */
    legacyFacts(access: IngestAccess, client: ClientInfo): RequestFacts | null {
      const facts = requestFacts(access, client, 'polyflow-legacy/1.0.25');
      return facts.isBot ? null : facts;
    },

    /** Rows of one project (the published SDK's mutations), with the codes it ignored at admission. */
    commitRows(access: IngestAccess, rows: readonly EventRow[]): Promise<CommitResult> {
      return deps.log.submit(rowsEntry(rows, access.ignoredWalletCodes));
    },

    /** Whether the geo-IP database is in memory: read on the first event that needs a country. */
    geoIpLoaded(): boolean {
      return (geo as Partial<ReturnType<typeof createGeoLookup>>).isLoaded?.() ?? true;
    },
  };
}
