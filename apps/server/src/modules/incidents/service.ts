import {
  ASSIGNEE_NONE,
  type IncidentAssignee,
  type IncidentDetail,
  type IncidentLifetime,
  type IncidentList,
  type IncidentRow,
  type IncidentStatus,
  IncidentStatuses,
  Severities,
  type Severity,
  type StackFrame,
  type StatusCounts,
} from '@polyflow/contracts/incidents';
import { ReleaseSchema } from '@polyflow/contracts/sourcemaps';
import { z } from 'zod';
import { AppError, forbidden, notFound } from '../../errors.ts';
import { type Actor, type AuditRecorder, type ProjectAccess, roleAllows } from '../../lib/access.ts';
import { type Clock, systemClock } from '../../lib/clock.ts';
import { decodeCursor, encodeCursor } from '../../reading/cursor.ts';
import { InputError } from '../../reading/input-error.ts';
import {
  bucketRange,
  DAY_MS,
  parseInstant,
  type RangeInput,
  startOfUtcDay,
  type TimeRange,
} from '../../reading/time-range.ts';
import type { AnalyticsQuestions } from '../event-store/analytics-questions.ts';
import type {
  IncidentQuestions,
  IncidentReleases,
  IncidentSummary,
} from '../event-store/incident-questions.ts';
import type { IncidentAssignmentStore } from './assignments.ts';
import { fingerprintOf, INCIDENT_ID_PATTERN } from './fingerprint.ts';
import { countBySeverity, severityOf } from './severity.ts';
import type { IncidentState, IncidentStateStore } from './store.ts';
import { toTrailEvent } from './trail.ts';
import { describeWalletState } from './wallet-state.ts';

export type IncidentService = ReturnType<typeof createIncidentService>;

export type IncidentListQuery = RangeInput & {
  projectId: string;
  search?: string | null;
  severities?: readonly string[] | null;
  /** Default: open only (resolved and ignored incidents leave the default list). */
  statuses?: readonly string[] | null;
  /** Only incidents with an occurrence of the range from this release (docs/releases.md). */
  release?: string | null;
  first?: number | null;
  after?: string | null;
  /** A member's user id (the resolver turns `me` into the caller's), or `none`: unassigned only. */
  assignee?: string | null;
};
export type IncidentQuery = RangeInput & { projectId: string; id: string };
export type IncidentStatusChange = {
  projectId: string;
  id: string;
  status: string;
  /** With `resolved`: resolve in next release (docs/releases.md). */
  inNextRelease?: boolean | null;
};

/** A stack's frames, mapped through the release's source maps (modules/sourcemaps, wired by app.ts). */
export type StackFrameMapper = (
  projectId: string,
  release: string | null,
  stack: string | null,
) => Promise<StackFrame[]>;
/** `userId` null: unassign. */
export type IncidentAssignment = { projectId: string; id: string; userId: string | null };

export type IncidentServiceDeps = {
  projects: ProjectAccess;
  /** The event store's read side: the incident questions, and the transactions' outcomes for the fail rate. */
  store: IncidentQuestions & Pick<AnalyticsQuestions, 'transactionOutcomes'>;
  states: IncidentStateStore;
  /** Who each incident is assigned to (ADR 067). */
  assignments: IncidentAssignmentStore;
  clock?: Clock;
  /** Status changes are recorded there (modules/audit-log). */
  audit: AuditRecorder;
  /** The detail's stack frames (default: none). */
  mapFrames?: StackFrameMapper;
};

/** The list screen's default period. */
export const DEFAULT_LIST_DAYS = 7;
export const DEFAULT_PAGE_SIZE = 25;
export const MAX_PAGE_SIZE = 100;
export const MAX_SEARCH_LENGTH = 200;

const iso = (ms: number) => new Date(ms).toISOString();

/** The owner's decision as it stands now: a resolved incident that occurred again is open, a regression. */
type StatusView = Pick<
  IncidentRow,
  'status' | 'isRegression' | 'statusChangedAt' | 'resolvedInNextRelease' | 'resolvedInRelease'
>;

/**
 * `reopenedByRelease`: whether an occurrence after the resolve came from a release first seen after it
 * (asked of the event store only for incidents resolved in next release that occurred again).
 */
function statusOf(
  state: IncidentState | undefined,
  lastSeenEverMs: number,
  reopenedByRelease: boolean,
): StatusView {
  const none = { resolvedInNextRelease: false, resolvedInRelease: null };
  if (!state) return { status: 'open', isRegression: false, statusChangedAt: null, ...none };
  const statusChangedAt = iso(state.changedAtMs);
  const release =
    state.status === 'resolved' && state.nextRelease
      ? { resolvedInNextRelease: true, resolvedInRelease: state.resolvedInRelease }
      : none;
  // Resolved in next release, only an occurrence of a newer release reopens it, by the server's receipt
  // times (the store decides it: a client's clock cannot hide it nor make an old release look new).
  const reopens = state.nextRelease ? reopenedByRelease : lastSeenEverMs > state.changedAtMs;
  if (state.status === 'resolved' && reopens) {
    return { status: 'open', isRegression: true, statusChangedAt, ...release };
  }
  return { status: state.status, isRegression: false, statusChangedAt, ...release };
}

/** The releases of the incidents shown, and which a newer release reopened (docs/releases.md). */
type ReleaseView = { of: ReadonlyMap<string, IncidentReleases>; reopened: ReadonlySet<string> };
const NO_RELEASES: ReleaseView = { of: new Map(), reopened: new Set() };

/**
 * The incidents shown that are resolved in next release: those a newer release may have reopened. Their
 * client times are not read here: an occurrence received after the resolve may carry an earlier `ts`.
 */
function nextReleaseCandidates(
  states: ReadonlyMap<string, IncidentState>,
  lastSeenEver: (id: string) => number | undefined,
) {
  return [...states.values()].flatMap((state) =>
    state.status === 'resolved' && state.nextRelease && lastSeenEver(state.incidentId) !== undefined
      ? [{ incidentId: state.incidentId, sinceMs: state.changedAtMs }]
      : [],
  );
}

/** The mapped top frame as the fingerprint names it (`file:function`), or undefined when it is not mapped. */
function originalTopFrameOf(frames: readonly StackFrame[]): string | undefined {
  const [top] = frames;
  return top?.mapped && top.file ? `${top.file}:${top.function ?? '<anonymous>'}` : undefined;
}

function parseRelease(input: string | null | undefined): string | null {
  if (input === null || input === undefined || input === '') return null;
  if (!ReleaseSchema.safeParse(input).success) {
    throw new InputError(
      'Invalid release: 1 to 64 characters without control characters, as the SDK sends it.',
    );
  }
  return input;
}

// User ids are UUIDs, stored in lower case (lib/ids.ts).
const UserIdSchema = z.uuid();

/**
 * The list's assignee filter: a user id ("me" is resolved to the caller's by the resolver) or "none"; blank is
 * no filter. Anything else is refused rather than matching no row, so that a mistyped id does not read as
 * "no incidents".
 */
function parseAssignee(input: string | null | undefined): string | null {
  const assignee = input?.trim() || null;
  if (assignee === null || assignee === ASSIGNEE_NONE) return assignee;
  if (UserIdSchema.safeParse(assignee).success) return assignee.toLowerCase();
  throw new InputError('Invalid assignee: a member\'s user id, "me" or "none".');
}

function toLifetime(summary: IncidentSummary, activeUsers: number): IncidentLifetime {
  return {
    firstSeen: iso(summary.firstSeenMs),
    lastSeen: iso(summary.lastSeenMs),
    occurrences: summary.occurrences,
    affectedUsers: summary.affectedUsers,
    affectedWallets: summary.affectedWallets,
    activeDays: summary.activeDays,
    failedTransactions: summary.failedTransactions,
    // The incident's own users were active then too; the max guards a derived table that lags behind.
    activeUsers: Math.max(activeUsers, summary.affectedUsers),
    reach: summary.affectedUsers / Math.max(activeUsers, summary.affectedUsers, 1),
  };
}

function toRow(
  summary: IncidentSummary,
  lifetime: IncidentLifetime,
  status: StatusView,
  assignee: IncidentAssignee | null,
  releases: IncidentReleases | undefined,
): IncidentRow {
  return {
    id: summary.id,
    type: summary.type,
    title: summary.title,
    severity: severityOf(lifetime),
    firstSeen: iso(summary.firstSeenMs),
    lastSeen: iso(summary.lastSeenMs),
    occurrences: summary.occurrences,
    affectedUsers: summary.affectedUsers,
    affectedWallets: summary.affectedWallets,
    activeDays: summary.activeDays,
    failedTransactions: summary.failedTransactions,
    wallet: summary.wallet,
    code: summary.code,
    method: summary.method,
    ...status,
    firstRelease: releases?.firstRelease ?? null,
    lastRelease: releases?.lastRelease ?? null,
    assignee,
  };
}

/** Most recent first; the id breaks ties so pages never overlap. */
const byLastSeen = (a: IncidentRow, b: IncidentRow) =>
  b.lastSeen.localeCompare(a.lastSeen) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

function parseSeverities(input: readonly string[] | null | undefined): Set<Severity> | null {
  if (!input || input.length === 0) return null;
  const known = new Set<Severity>();
  for (const value of input) {
    const severity = Severities.find((s) => s === value);
    if (!severity)
      throw new InputError(`Invalid severity "${value.slice(0, 20)}": use ${Severities.join(', ')}.`);
    known.add(severity);
  }
  return known;
}

function parseStatuses(input: readonly string[] | null | undefined): Set<IncidentStatus> {
  if (!input || input.length === 0) return new Set(['open']);
  const known = new Set<IncidentStatus>();
  for (const value of input) {
    const status = IncidentStatuses.find((s) => s === value);
    if (!status) {
      throw new InputError(`Invalid status "${value.slice(0, 20)}": use ${IncidentStatuses.join(', ')}.`);
    }
    known.add(status);
  }
  return known;
}

/** The last 7 days unless told otherwise; one open end is closed 7 days from the other. */
function listRange(input: RangeInput, nowMs: number): TimeRange {
  const fromMs = input.from ? parseInstant(input.from, 'from') : undefined;
  const toMs = input.to ? parseInstant(input.to, 'to') : undefined;
  const period = DEFAULT_LIST_DAYS * DAY_MS;
  const range = {
    fromMs: fromMs ?? (toMs ?? nowMs) - period,
    toMs: toMs ?? (fromMs === undefined ? nowMs : Math.max(nowMs, fromMs + 1)),
  };
  if (range.fromMs >= range.toMs) {
    throw new InputError(`Invalid range: from (${input.from}) must be before to (${input.to ?? 'now'}).`);
  }
  return range;
}

/** The detail's range: all time (up to now) unless told otherwise; no scan needed to close it. */
function detailRange(input: RangeInput, nowMs: number): TimeRange {
  const fromMs = input.from ? parseInstant(input.from, 'from') : 0;
  const toMs = input.to ? parseInstant(input.to, 'to') : Math.max(nowMs, fromMs + 1);
  if (fromMs >= toMs) {
    throw new InputError(
      `Invalid range: from (${input.from ?? 'all time'}) must be before to (${input.to}).`,
    );
  }
  return { fromMs, toMs };
}

/** Incidents (grouped errors) with lifetime severity and the owner's status; every call answers only the owner. */
export function createIncidentService({
  projects,
  store,
  states,
  assignments,
  clock = systemClock,
  audit,
  mapFrames = async () => [],
}: IncidentServiceDeps) {
  /**
   * The range's summaries and each incident's whole life (all time up to now) with its reach, keyed by id:
   * what severity and the regression flag are decided from, whatever range the screen shows. One call of
   * the event store for both (ADR 042); the reach waits for the lives' spans.
   */
  async function summariesAndLifetimes(
    projectId: string,
    range: TimeRange,
    nowMs: number,
    options: { search?: string; incidentId?: string },
  ) {
    const { summaries, lives } = await store.incidentSummariesAndLives(projectId, range, nowMs + 1, options);
    return { summaries, lifetimes: await lifetimesOf(projectId, lives) };
  }

  async function lifetimesOf(projectId: string, summaries: readonly IncidentSummary[]) {
    const spans = summaries.map((summary) => ({
      incidentId: summary.id,
      firstSeenMs: summary.firstSeenMs,
      lastSeenMs: summary.lastSeenMs,
    }));
    const activeUsers = await store.activeUsersDuring(projectId, spans);
    return new Map(
      summaries.map((summary) => [summary.id, toLifetime(summary, activeUsers.get(summary.id) ?? 0)]),
    );
  }

  /** A summary of the range as a row: lifetime severity, status as of now. */
  function rowOf(
    summary: IncidentSummary,
    lifetime: IncidentLifetime | undefined,
    state: IncidentState | undefined,
    assignee?: IncidentAssignee,
    releases: ReleaseView = NO_RELEASES,
  ): IncidentRow {
    // An occurrence in the range is also one of its life; the fallback only covers a write in between.
    const life = lifetime ?? toLifetime(summary, summary.affectedUsers);
    const status = statusOf(state, Date.parse(life.lastSeen), releases.reopened.has(summary.id));
    return toRow(summary, life, status, assignee ?? null, releases.of.get(summary.id));
  }

  /** Which incidents resolved in next release a newer release reopened. */
  async function reopenedByRelease(
    projectId: string,
    decisions: ReadonlyMap<string, IncidentState>,
    lifetimes: ReadonlyMap<string, IncidentLifetime>,
  ): Promise<Set<string>> {
    const lastSeenEver = (id: string) => {
      const life = lifetimes.get(id);
      return life ? Date.parse(life.lastSeen) : undefined;
    };
    return store.newReleaseOccurrences(projectId, nextReleaseCandidates(decisions, lastSeenEver));
  }

  /** The incident's whole life up to now, or 404 when the project never had it. */
  async function existingIncident(projectId: string, id: string, now: Date) {
    if (!INCIDENT_ID_PATTERN.test(id)) {
      throw new InputError('Invalid incident id: pass the id of an incident row unchanged.');
    }
    const allTime = { fromMs: 0, toMs: now.getTime() + 1 };
    const {
      summaries: [summary],
      lifetimes,
    } = await summariesAndLifetimes(projectId, allTime, now.getTime(), { incidentId: id });
    const lifetime = lifetimes.get(id);
    if (!lifetime || !summary) throw notFound('No such incident in this project.');
    return { summary, lifetime };
  }

  return {
    async list(userId: string, input: IncidentListQuery): Promise<IncidentList> {
      await projects.getProjectFor(userId, input.projectId);
      const nowMs = clock().getTime();
      const range = listRange(input, nowMs);
      const severities = parseSeverities(input.severities);
      const statuses = parseStatuses(input.statuses);
      const first = input.first ?? DEFAULT_PAGE_SIZE;
      if (!Number.isInteger(first) || first < 1 || first > MAX_PAGE_SIZE) {
        throw new InputError(`Invalid first: use a whole number from 1 to ${MAX_PAGE_SIZE}.`);
      }
      const search = input.search?.trim() ?? '';
      if (search.length > MAX_SEARCH_LENGTH) {
        throw new InputError(`Invalid search: at most ${MAX_SEARCH_LENGTH} characters.`);
      }
      const cursor = input.after ? decodeCursor(input.after) : null;
      const release = parseRelease(input.release);

      const assignee = parseAssignee(input.assignee);
      const [{ summaries, lifetimes: lives }, outcomes, decisions, assignees, releasesOf] = await Promise.all(
        [
          summariesAndLifetimes(input.projectId, range, nowMs, { search }),
          store.transactionOutcomes(input.projectId, bucketRange(range)),
          states.statesOf(input.projectId),
          assignments.assigneesOf(input.projectId),
          store.incidentReleases(input.projectId, release ? { release: { name: release, range } } : {}),
        ],
      );
      const reopened = await reopenedByRelease(input.projectId, decisions, lives);
      const rows = summaries.map((summary) => ({
        row: rowOf(summary, lives.get(summary.id), decisions.get(summary.id), assignees.get(summary.id), {
          of: releasesOf,
          reopened,
        }),
        isMatch: summary.isMatch && (!release || releasesOf.get(summary.id)?.inRelease === true),
      }));
      const isAssigneeMatch = (row: IncidentRow) =>
        assignee === null ||
        (assignee === ASSIGNEE_NONE ? row.assignee === null : row.assignee?.userId === assignee);
      const byStatus: StatusCounts = { open: 0, resolved: 0, ignored: 0 };
      for (const { row } of rows) byStatus[row.status] += 1;
      const listed = rows.filter(({ row }) => statuses.has(row.status));
      const matching = listed
        .filter(
          ({ row, isMatch }) =>
            isMatch && (!severities || severities.has(row.severity)) && isAssigneeMatch(row),
        )
        .map(({ row }) => row)
        .sort(byLastSeen);
      const start = cursor
        ? matching.findIndex((row) => {
            const lastSeenMs = Date.parse(row.lastSeen);
            return lastSeenMs < cursor.timeMs || (lastSeenMs === cursor.timeMs && row.id > cursor.id);
          })
        : 0;
      const page = start < 0 ? [] : matching.slice(start, start + first);
      const last = page.at(-1);
      const hasMore = start >= 0 && start + first < matching.length;
      const counts = outcomes.get(0);
      return {
        from: iso(range.fromMs),
        to: iso(range.toMs),
        totalIncidents: listed.length,
        byStatus,
        transactionFailRate: counts && counts.attempted > 0 ? counts.failed / counts.attempted : null,
        bySeverity: countBySeverity(listed.map(({ row }) => row.severity)),
        matching: matching.length,
        rows: page,
        nextCursor: hasMore && last ? encodeCursor({ timeMs: Date.parse(last.lastSeen), id: last.id }) : null,
      };
    },

    /** One incident over the range (all time without one); null when the project has no such incident in it. */
    async detail(userId: string, input: IncidentQuery): Promise<IncidentDetail | null> {
      await projects.getProjectFor(userId, input.projectId);
      if (!INCIDENT_ID_PATTERN.test(input.id)) {
        throw new InputError('Invalid incident id: pass the id of an incident row unchanged.');
      }
      const nowMs = clock().getTime();
      const range = detailRange(input, nowMs);
      // The range's summary and the incident's life come together (ADR 042); then the latest occurrence
      // and its trail are read while the lifetime's reach is being counted: each waits only for what it
      // needs (ADR 029).
      const figures = store.incidentSummariesAndLives(input.projectId, range, nowMs + 1, {
        incidentId: input.id,
      });
      const latestOfRange = figures.then(async ({ summaries: [summary] }) => {
        const latest = summary ? await store.occurrenceById(input.projectId, summary.latestEventId) : null;
        const trail = latest ? await store.sessionTrail(input.projectId, latest) : [];
        return { latest, trail };
      });
      const [summary, { latest, trail }, lives, decisions, assignees, releasesOf] = await Promise.all([
        figures.then(({ summaries }) => summaries[0]),
        latestOfRange,
        figures.then(({ lives }) => lifetimesOf(input.projectId, lives)),
        states.statesOf(input.projectId),
        assignments.assigneesOf(input.projectId),
        store.incidentReleases(input.projectId, { incidentId: input.id }),
      ]);
      if (!summary || !latest) return null;
      const [reopened, frames] = await Promise.all([
        reopenedByRelease(input.projectId, decisions, lives),
        mapFrames(input.projectId, latest.release, latest.stack),
      ]);
      const lifetime = lives.get(summary.id) ?? toLifetime(summary, summary.affectedUsers);
      // An error before the wallet was mentioned again still belongs to the session's wallet.
      const wallet = latest.wallet ?? trail.findLast((event) => event.walletAddress)?.walletAddress ?? null;
      return {
        ...rowOf(summary, lifetime, decisions.get(summary.id), assignees.get(summary.id), {
          of: releasesOf,
          reopened,
        }),
        // All time starts with the incident's first occurrence.
        from: iso(input.from ? range.fromMs : startOfUtcDay(summary.firstSeenMs)),
        to: iso(range.toMs),
        // As ingestion grouped it: on the original top frame when the release's maps cover it (ADR 066).
        fingerprint: fingerprintOf({ ...latest, originalTopFrame: originalTopFrameOf(frames) }),
        lifetime,
        latest: {
          eventId: latest.eventId,
          time: iso(latest.timeMs),
          userId: latest.userId,
          sessionId: latest.sessionId,
          wallet,
          walletState: describeWalletState({
            gasBalance: latest.gasBalance,
            nonce: latest.walletNonce,
            chainId: latest.chainId,
            provider: latest.walletProvider,
          }),
          message: latest.message,
          stack: latest.stack,
          code: latest.code,
          method: latest.method,
          path: latest.path,
          browser: latest.browser,
          os: latest.os,
          country: latest.country,
          release: latest.release,
          frames,
          trail: trail.map(toTrailEvent),
        },
      };
    },

    /**
     * Resolve, ignore or reopen an incident of the caller's project. An id the project never had an
     * occurrence of is NOT_FOUND (nothing is stored for it).
     */
    async setStatus(actor: Actor, input: IncidentStatusChange): Promise<IncidentRow> {
      await projects.getProjectFor(actor.id, input.projectId, 'manage');
      if (!INCIDENT_ID_PATTERN.test(input.id)) {
        throw new InputError('Invalid incident id: pass the id of an incident row unchanged.');
      }
      const status = IncidentStatuses.find((candidate) => candidate === input.status);
      if (!status) {
        throw new InputError(`Invalid status: use ${IncidentStatuses.join(', ')}.`);
      }
      if (input.inNextRelease && status !== 'resolved') {
        throw new InputError('inNextRelease goes with status resolved only.');
      }
      const now = clock();
      const allTime = { fromMs: 0, toMs: now.getTime() + 1 };
      const {
        summaries: [summary],
        lifetimes,
      } = await summariesAndLifetimes(input.projectId, allTime, now.getTime(), { incidentId: input.id });
      const lifetime = lifetimes.get(input.id);
      if (!lifetime || !summary) throw notFound('No such incident in this project.');
      const releasesOf = await store.incidentReleases(input.projectId, { incidentId: input.id });
      const nextRelease = input.inNextRelease
        ? { release: releasesOf.get(input.id)?.lastRelease ?? null }
        : undefined;
      await states.setState({
        projectId: input.projectId,
        incidentId: input.id,
        status,
        changedAt: now,
        changedBy: actor.id,
        nextRelease,
      });
      await audit.record({
        projectId: input.projectId,
        actor,
        action: 'incident.status',
        target: input.id,
        details: nextRelease ? { status, inNextRelease: true, release: nextRelease.release } : { status },
      });
      const state = (await states.statesOf(input.projectId)).get(input.id);
      // Just changed: nothing has occurred since, so no release has reopened it yet.
      const assignee = (await assignments.assigneesOf(input.projectId)).get(input.id);
      return rowOf(summary, lifetime, state, assignee, { of: releasesOf, reopened: new Set() });
    },

    /**
     * Assigns the incident to a current member of the project, or unassigns it (`userId` null). Admins and
     * the owner assign anyone; a viewer may take an unassigned incident for themselves and give up their
     * own (ADR 067). Recorded in the audit log as `incident.assign` (details: the emails before and after).
     */
    async assign(actor: Actor, input: IncidentAssignment): Promise<IncidentRow> {
      const project = await projects.getProjectFor(actor.id, input.projectId);
      const now = clock();
      const { summary, lifetime } = await existingIncident(input.projectId, input.id, now);
      const [before, decisions] = await Promise.all([
        assignments.assigneesOf(input.projectId),
        states.statesOf(input.projectId),
      ]);
      const current = before.get(input.id) ?? null;
      if (!roleAllows(project.role, 'manage')) {
        const takesItself = input.userId === actor.id && (!current || current.userId === actor.id);
        const givesUpOwn = input.userId === null && current?.userId === actor.id;
        if (!takesItself && !givesUpOwn) {
          throw forbidden(
            'As a viewer you can take an unassigned incident for yourself or give up your own; ask an admin to assign others.',
          );
        }
      }
      const notMember = () =>
        new AppError(
          400,
          'ASSIGNEE_NOT_MEMBER',
          'Incidents can be assigned only to current members of this project.',
          [{ path: 'userId', message: 'not a member of this project' }],
        );
      const email =
        input.userId === null ? null : await assignments.memberEmail(input.projectId, input.userId);
      if (input.userId !== null && email === null) throw notMember();
      if ((current?.userId ?? null) !== input.userId) {
        const written = await assignments.assign({
          projectId: input.projectId,
          incidentId: input.id,
          userId: input.userId,
          at: now,
          by: actor.id,
        });
        if (!written) throw notMember();
        await audit.record({
          projectId: input.projectId,
          actor,
          action: 'incident.assign',
          target: input.id,
          details: { from: current?.email ?? null, to: email },
        });
      }
      const [after, releasesOf, reopened] = await Promise.all([
        assignments.assigneesOf(input.projectId).then((assignees) => assignees.get(input.id)),
        store.incidentReleases(input.projectId, { incidentId: input.id }),
        reopenedByRelease(input.projectId, decisions, new Map([[input.id, lifetime]])),
      ]);
      return rowOf(summary, lifetime, decisions.get(input.id), after, { of: releasesOf, reopened });
    },

    /**
     * An incident's lifetime severity up to `nowMs`, as the Incidents screens show it (alert rules'
     * `new_incident`; no caller check: the alert evaluation asks for its rules' projects).
     */
    async lifetimeSeverity(projectId: string, incidentId: string, nowMs: number): Promise<Severity> {
      const { lifetimes } = await summariesAndLifetimes(projectId, { fromMs: 0, toMs: nowMs + 1 }, nowMs, {
        incidentId,
      });
      const lifetime = lifetimes.get(incidentId);
      return lifetime ? severityOf(lifetime) : 'low';
    },

    /** The resolved incidents of these projects and when (alert rules' `incident_regression`). */
    resolvedIncidents: (projectIds: readonly string[]) => states.resolvedIn(projectIds),
  };
}
