import { createHash } from 'node:crypto';
import {
  type AnalyticsFilters,
  AnalyticsFiltersSchema,
  hasAnalyticsFilters,
} from '@polyflow/contracts/analytics';
import { DEFAULT_TIME_ZONE, localDate, startOfLocalDay, wallClockMs } from '@polyflow/contracts/time-zone';
import type { ProjectAccess } from '../../lib/access.ts';
import { type Clock, systemClock } from '../../lib/clock.ts';
import { groupBy } from '../../lib/group-by.ts';
import { decodeCursorParts, encodeCursorParts } from '../../reading/cursor.ts';
import { parseFilters } from '../../reading/filters.ts';
import { InputError } from '../../reading/input-error.ts';
import { functionNameOf } from '../../reading/known-selectors.ts';
import {
  DAY_MS,
  daysIn,
  needsSpan,
  type RangeInput,
  resolveRange,
  startOfUtcDay,
  type TimeRange,
} from '../../reading/time-range.ts';
import type { AnalyticsQuestions } from '../event-store/analytics-questions.ts';
import {
  type CohortDimension,
  factsOf,
  LIFECYCLE_STAGES,
  LIFECYCLE_WINDOWS,
  type LifecycleCounts,
  type LifecycleStage,
  periodStartMs,
  type RetentionReturn,
  type SessionPosition,
  stageOf,
  WALLET_LIST_SORTS,
  type WalletListQuery,
  type WalletListSort,
  type WalletQuestions,
  type WalletTimeline,
  type WalletTimelineEvent,
} from '../event-store/wallet-questions.ts';

/** The wallet figures of docs/wallets.md. Every call first checks that the caller may read the project. */

export type WalletServiceDeps = {
  projects: ProjectAccess;
  store: WalletQuestions & Pick<AnalyticsQuestions, 'eventSpan'>;
  clock?: Clock;
};
export type WalletService = ReturnType<typeof createWalletService>;

/** The longest range any wallet query takes. */
export const MAX_RANGE_DAYS = 400;
/** Ranges shorter than this get daily cohorts; weekly from here on. */
export const DAILY_COHORTS_BELOW_DAYS = 30;
export const COHORT_PERIODS = 12;
/** The wallet page's timeline: sessions per page, newest first ("older sessions" asks for the next). */
export const TIMELINE_SESSIONS = 10;

const ADDRESS = /^0x[0-9a-f]{40}$/i;
const PREFIX = /^(0x)?[0-9a-f]{6,40}$/i;

/** A full address, any case, lower-cased; anything else a BAD_USER_INPUT. */
export function parseAddress(input: string): string {
  const text = input.trim();
  if (!ADDRESS.test(text)) {
    throw new InputError(
      `Invalid wallet address "${text.slice(0, 60)}": use 0x followed by 40 hexadecimal characters.`,
    );
  }
  return text.toLowerCase();
}

/** A search: a full address or a prefix of at least 6 hex characters (0x optional), lower-cased with 0x. */
export function parseSearch(input: string | null | undefined): string | null {
  const text = input?.trim() ?? '';
  if (!text) return null;
  if (!PREFIX.test(text) || (text.toLowerCase().startsWith('0x') && text.length < 8)) {
    throw new InputError(
      `Invalid search "${text.slice(0, 60)}": use a wallet address or at least its first 6 hexadecimal characters.`,
    );
  }
  const lower = text.toLowerCase();
  return lower.startsWith('0x') ? lower : `0x${lower}`;
}

const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The wallet page's active days asked back from today: the stage's 56 days, with a margin of zones and midnight. */
const STAGE_DAYS_BACK = 2 * LIFECYCLE_WINDOWS.lifeDays + 4;

function oneOf<T extends string>(values: readonly T[], input: string, what: string): T {
  const found = values.find((value) => value === input);
  if (!found)
    throw new InputError(`Unknown ${what} "${input.slice(0, 40)}": use one of ${values.join(', ')}.`);
  return found;
}

/** The stage names as GraphQL and the console spell them. */
export const STAGE_NAMES: Record<LifecycleStage, string> = {
  new: 'NEW',
  resurrected: 'RESURRECTED',
  power: 'POWER',
  active: 'ACTIVE',
  at_risk: 'AT_RISK',
  churned: 'CHURNED',
};
function stageOfName(name: string): LifecycleStage {
  const stage = LIFECYCLE_STAGES.find((candidate) => STAGE_NAMES[candidate] === name.trim().toUpperCase());
  if (!stage) {
    throw new InputError(
      `Unknown lifecycle stage "${name.slice(0, 40)}": use one of ${Object.values(STAGE_NAMES).join(', ')}.`,
    );
  }
  return stage;
}

export type ListInput = Filtered &
  RangeInput & {
    search?: string | null;
    stage?: string | null;
    source?: string | null;
    campaign?: string | null;
    chainId?: number | null;
    country?: string | null;
    sort?: string | null;
    descending?: boolean | null;
    first?: number | null;
    after?: string | null;
  };

/** The Analytics screen's filters as GraphQL hands them over (docs/wallets.md, "With the Analytics filters"). */
export type Filtered = { filters?: unknown };
/** The filters of an input, parsed with AnalyticsFiltersSchema (a refused list is BAD_USER_INPUT); null without any. */
function filtersOf(input: Filtered): AnalyticsFilters | null {
  const filters = parseFilters(AnalyticsFiltersSchema, input.filters);
  return hasAnalyticsFilters(filters) ? filters : null;
}

export type CohortInput = Filtered &
  RangeInput & {
    returnBy?: string | null;
    splitDimension?: string | null;
    splitValue?: string | null;
  };

/** A blank UTM value (empty or spaces) is none, as in acquisition's attribution (docs/wallets.md). */
function blankIsNone(value: string | null): string | null {
  return value === null || value.trim() === '' ? null : value;
}

type ListCursor = { query: string; value: string; wallet: string };

function encodeListCursor(cursor: ListCursor): string {
  return encodeCursorParts([cursor.query, cursor.value, cursor.wallet]);
}

function decodeListCursor(text: string, query: string): { value: string; wallet: string } {
  const invalid = () =>
    new InputError('Invalid cursor: pass the nextCursor of a previous page of the same query unchanged.');
  const value = decodeCursorParts(text, 3, 300, invalid);
  if (
    value[0] !== query ||
    typeof value[1] !== 'string' ||
    !/^-?\d{1,80}$/.test(value[1]) ||
    typeof value[2] !== 'string' ||
    !ADDRESS.test(value[2])
  ) {
    throw invalid();
  }
  return { value: value[1], wallet: value[2] };
}

/** A timeline cursor names its wallet: another wallet's cursor is refused, not misread. */
function encodeSessionsCursor(wallet: string, position: SessionPosition): string {
  return encodeCursorParts([wallet, position.lastMs, position.sessionId]);
}

function decodeSessionsCursor(text: string, wallet: string): SessionPosition {
  const invalid = () =>
    new InputError(
      "Invalid cursor: pass the olderSessions (or nextCursor) of the same wallet's sessions unchanged.",
    );
  const value = decodeCursorParts(text, 3, 600, invalid);
  if (
    value[0] !== wallet ||
    !Number.isSafeInteger(value[1]) ||
    typeof value[2] !== 'string' ||
    value[2].length === 0 ||
    value[2].length > 200
  ) {
    throw invalid();
  }
  return { lastMs: value[1] as number, sessionId: value[2] };
}

const SORT_VALUE: Record<
  WalletListSort,
  (row: {
    firstSeenMs: number;
    lastSeenMs: number;
    transactions: number;
    failed: number;
    gasPaidWei: string;
  }) => string
> = {
  last_seen: (row) => String(row.lastSeenMs),
  first_seen: (row) => String(row.firstSeenMs),
  transactions: (row) => String(row.transactions),
  failed: (row) => String(row.failed),
  gas_paid: (row) => row.gasPaidWei,
};

/** burned / paid, rounded to 6 decimals (half up, as docs/wallets.md says); null when nothing was paid. */
export function shareOf(burned: string, paid: string): number | null {
  const total = BigInt(paid);
  if (total <= 0n) return null;
  return Number((BigInt(burned) * 2_000_000n + total) / (2n * total)) / 1_000_000;
}

/**
 * A range's length in days of the project's zone, read on its wall clock: 1 to 31 March is 30 days in New
 * York though the spring change makes it 719 hours (docs/wallets.md: ranges and periods are local days).
 */
export const localDaysLong = (range: TimeRange, zone: string): number =>
  (wallClockMs(range.toMs, zone) - wallClockMs(range.fromMs, zone)) / DAY_MS;

export function createWalletService({ projects, store, clock = systemClock }: WalletServiceDeps) {
  /** Owner check; the project's time zone (all time starts at the local midnight of its first event). */
  async function owned(userId: string, projectId: string): Promise<string> {
    const { timeZone } = await projects.getProjectFor(userId, projectId);
    return timeZone ?? DEFAULT_TIME_ZONE;
  }

  async function rangeOf(projectId: string, input: RangeInput, zone: string): Promise<TimeRange> {
    const span = needsSpan(input) ? await store.eventSpan(projectId) : null;
    const range = resolveRange(input, span, clock().getTime(), zone);
    if (localDaysLong(range, zone) <= MAX_RANGE_DAYS) return range;
    // An open start ("all time") longer than the limit means its last 400 local days, the one holding the
    // range's end counted, from the first one's midnight; an explicit one is refused.
    if (input.from) throw new InputError(`Invalid range: at most ${MAX_RANGE_DAYS} days from from to to.`);
    return { fromMs: startOfLocalDay(range.toMs - 1, zone, 1 - MAX_RANGE_DAYS), toMs: range.toMs };
  }

  /**
   * The lifecycle's as-of day of a range: its last local day, or today if the range runs past now (days of
   * the project's zone, docs/wallets.md).
   */
  const asOfDayOf = (range: TimeRange, zone: string) =>
    localDate(Math.min(range.toMs - 1, clock().getTime()), zone);

  async function lifecycleOf(
    projectId: string,
    range: TimeRange,
    zone: string,
    filters: AnalyticsFilters | null = null,
  ) {
    const asOf = asOfDayOf(range, zone);
    // One range length before: as many local days back as the range touches.
    const previousAsOf = utcDay(Date.parse(asOf) - daysIn(range, zone) * DAY_MS);
    // Filtered, the previous figures are those of the wallets a passing session carried in the period before.
    const previousRange = { fromMs: range.fromMs - (range.toMs - range.fromMs), toMs: range.fromMs };
    const [current, previous] = await Promise.all([
      store.lifecycleCounts(projectId, asOf, filters ? { range, filters } : undefined, zone),
      store.lifecycleCounts(
        projectId,
        previousAsOf,
        filters ? { range: previousRange, filters } : undefined,
        zone,
      ),
    ]);
    const shape = (day: string, counts: LifecycleCounts) => ({
      asOf: day,
      new: counts.new,
      resurrected: counts.resurrected,
      power: counts.power,
      active: counts.active,
      atRisk: counts.at_risk,
      churned: counts.churned,
      powerThreshold: counts.powerThreshold,
    });
    return { current: shape(asOf, current), previous: shape(previousAsOf, previous) };
  }

  /**
   * One wallet's stage as of the as-of day: from its active UTC days in a UTC project; in another zone
   * from its own local days (`walletStageFacts`), as the Wallets list decides it, so the page and the
   * list agree. The project's Power threshold is asked only when it can decide: Power only ever takes the
   * place of Active, never below its least threshold, and a wallet active on every day of the last 28 is
   * Power whatever the threshold (it is a candidate's count, so at most 28).
   */
  async function stageOfWallet(
    projectId: string,
    wallet: string,
    activeUtcDays: readonly string[],
    asOfDay: string,
    zone: string,
  ): Promise<LifecycleStage | null> {
    const facts =
      zone === DEFAULT_TIME_ZONE
        ? factsOf(activeUtcDays, asOfDay)
        : await store.walletStageFacts(projectId, wallet, asOfDay, zone);
    if (!facts) return null;
    const withoutPower = stageOf(facts, null);
    if (withoutPower !== 'active' || facts.n28 < LIFECYCLE_WINDOWS.powerMinDays) return withoutPower;
    if (facts.n28 === LIFECYCLE_WINDOWS.lifeDays) return 'power';
    return stageOf(facts, (await store.lifecycleCounts(projectId, asOfDay, undefined, zone)).powerThreshold);
  }

  return {
    async lifecycle(userId: string, projectId: string, input: RangeInput & Filtered) {
      const filters = filtersOf(input);
      const zone = await owned(userId, projectId);
      // The lifecycle's days are the project's local days (docs/wallets.md), its range's too.
      return lifecycleOf(projectId, await rangeOf(projectId, input, zone), zone, filters);
    },

    async cohorts(userId: string, projectId: string, input: CohortInput) {
      const filters = filtersOf(input);
      const { timeZone } = await projects.getProjectFor(userId, projectId);
      const returnBy = oneOf<RetentionReturn>(
        ['connected', 'transacted'],
        (input.returnBy ?? 'connected').toLowerCase(),
        'return',
      );
      if (input.splitValue !== undefined && input.splitValue !== null && !input.splitDimension) {
        throw new InputError(
          'Invalid split: a splitValue needs a splitDimension (source, medium or campaign).',
        );
      }
      const dimension = input.splitDimension
        ? oneOf<CohortDimension>(
            ['source', 'medium', 'campaign'],
            input.splitDimension.toLowerCase(),
            'split dimension',
          )
        : null;
      const range = await rangeOf(projectId, input, timeZone ?? DEFAULT_TIME_ZONE);
      const daily = localDaysLong(range, timeZone ?? DEFAULT_TIME_ZONE) < DAILY_COHORTS_BELOW_DAYS;
      const periodMs = daily ? DAY_MS : 7 * DAY_MS;
      const nowMs = clock().getTime();
      const query = {
        range,
        periodMs,
        periods: COHORT_PERIODS,
        returnBy,
        split: dimension ? { dimension, value: input.splitValue ?? null } : null,
        untilMs: nowMs,
        timeZone: timeZone ?? DEFAULT_TIME_ZONE,
        ...(filters && { filters }),
      };
      const rows = await store.retentionCohorts(projectId, query);
      // Periods of local days or weeks in the project's zone (docs/timezone.md).
      const startOf = (index: number) => periodStartMs(query, index);
      return {
        granularity: daily ? 'DAY' : 'WEEK',
        periods: COHORT_PERIODS,
        cohorts: rows.map((row) => {
          const startMs = startOf(row.index);
          // A period that has not started yet has no figure.
          const started = (k: number) => startOf(row.index + k + 1) < nowMs;
          return {
            start: new Date(startMs),
            end: new Date(Math.min(startOf(row.index + 1), range.toMs)),
            size: row.size,
            returned: row.returned.map((wallets, k) => (started(k) ? wallets : null)),
            shares: row.returned.map((wallets, k) =>
              started(k) && row.size > 0 ? wallets / row.size : null,
            ),
          };
        }),
      };
    },

    async failedTransactionCost(userId: string, projectId: string, input: RangeInput & Filtered) {
      const filters = filtersOf(input);
      const zone = await owned(userId, projectId);
      const range = await rangeOf(projectId, input, zone);
      const cost = await store.failedTransactionCost(projectId, range, filters ?? undefined, zone);
      return {
        chains: cost.chains.map((chain) => ({
          ...chain,
          burnedShare: shareOf(chain.gasBurnedWei, chain.gasPaidWei),
        })),
        // Named as the contract functions are (docs/wallets.md#failed-transaction-cost).
        rows: cost.rows.map((row) => ({ ...row, functionName: functionNameOf(row.selector) })),
      };
    },

    async wallet(userId: string, projectId: string, address: string) {
      const wallet = parseAddress(address);
      const zone = await owned(userId, projectId);
      // The profile and the newest sessions at once: neither needs the other (a wallet never seen has
      // no sessions either, and its empty timeline is dropped).
      // The stage's as-of day is today's (or yesterday's, at midnight): its active days from 60 days
      // before today suffice (factsOf looks back 55 days and at the first day).
      const [profile, timeline] = await Promise.all([
        store.walletProfile(projectId, wallet, utcDay(clock().getTime() - STAGE_DAYS_BACK * DAY_MS)),
        store.walletTimeline(projectId, wallet, { sessions: TIMELINE_SESSIONS, after: null }),
      ]);
      if (!profile) return null;
      const nowMs = clock().getTime();
      const range = {
        fromMs: startOfUtcDay(profile.firstSeenMs),
        toMs: Math.max(nowMs, profile.lastSeenMs + 1),
      };
      const asOfDay = asOfDayOf(range, zone);
      const stage = await stageOfWallet(projectId, wallet, profile.activeDays, asOfDay, zone);
      return {
        address: wallet,
        firstSeen: new Date(profile.firstSeenMs),
        lastSeen: new Date(profile.lastSeenMs),
        firstConnected: profile.firstConnectedMs === null ? null : new Date(profile.firstConnectedMs),
        firstTouch: profile.firstTouch && {
          ...profile.firstTouch,
          source: blankIsNone(profile.firstTouch.source),
          medium: blankIsNone(profile.firstTouch.medium),
          campaign: blankIsNone(profile.firstTouch.campaign),
        },
        countries: profile.countries,
        browsers: profile.browsers,
        providers: profile.providers,
        chains: profile.chains,
        sessionCount: profile.sessions,
        transactions: profile.transactions,
        failedBeforeSubmission: profile.failedBeforeSubmission,
        reverted: profile.reverted,
        gas: profile.gas.map((chain) => ({
          ...chain,
          burnedShare: shareOf(chain.gasBurnedWei, chain.gasPaidWei),
        })),
        stage: stage ? STAGE_NAMES[stage] : null,
        ...sessionPage(wallet, timeline),
      };
    },

    /** The wallet's sessions after a cursor of its page (older ones), as the page's timeline. */
    async walletSessions(userId: string, projectId: string, address: string, after: string) {
      const wallet = parseAddress(address);
      // Another user's project looks absent whatever the cursor: the owner check first.
      await owned(userId, projectId);
      const position = decodeSessionsCursor(after, wallet);
      const timeline = await store.walletTimeline(projectId, wallet, {
        sessions: TIMELINE_SESSIONS,
        after: position,
      });
      const page = sessionPage(wallet, timeline);
      return { sessions: page.sessions, nextCursor: page.olderSessions };
    },

    async list(userId: string, projectId: string, input: ListInput) {
      const search = parseSearch(input.search);
      const stage = input.stage ? stageOfName(input.stage) : null;
      const sort = oneOf<WalletListSort>(
        WALLET_LIST_SORTS,
        (input.sort ?? 'last_seen').toLowerCase(),
        'sort',
      );
      const zone = await owned(userId, projectId);
      const range = await rangeOf(projectId, input, zone);
      const descending = input.descending ?? true;
      const limit = input.first ?? 50;
      const analyticsFilters = filtersOf(input);
      const filters = {
        search,
        stage,
        source: input.source ?? null,
        campaign: input.campaign ?? null,
        chainId: input.chainId ?? null,
        country: input.country ?? null,
      };
      // A cursor names the query it came from: another query's cursor is refused, not misread. An open end
      // is named open, not by the instant it resolved to: "all time" ends at now, which moves between pages.
      const askedRange = [input.from ? range.fromMs : null, input.to ? range.toMs : null];
      const queryKey = createHash('sha256')
        .update(JSON.stringify([projectId, askedRange, filters, analyticsFilters, sort, descending]))
        .digest('base64url')
        .slice(0, 16);
      const after = input.after ? decodeListCursor(input.after, queryKey) : null;
      const asOfDay = asOfDayOf(range, zone);
      // The store derives the Power threshold with the rows (ADR 102); an empty page asks it apart.
      const query: WalletListQuery = {
        ...emptyListQuery(range, asOfDay, undefined),
        timeZone: zone,
        ...filters,
        ...(analyticsFilters && { filters: analyticsFilters }),
        sort,
        descending,
        limit: limit + 1,
        after,
      };
      const rows = await store.walletList(projectId, query);
      const powerThreshold =
        rows[0]?.powerThreshold !== undefined
          ? rows[0].powerThreshold
          : (await store.lifecycleCounts(projectId, asOfDay, undefined, zone)).powerThreshold;
      const page = rows.slice(0, limit);
      const last = page[page.length - 1];
      return {
        from: new Date(range.fromMs),
        to: new Date(range.toMs),
        asOf: asOfDay,
        powerThreshold,
        rows: page.map((row) => ({
          address: row.wallet,
          firstSeen: new Date(row.firstSeenMs),
          lastSeen: new Date(row.lastSeenMs),
          transactions: row.transactions,
          failed: row.failed,
          gasPaidWei: row.gasPaidWei,
          stage: STAGE_NAMES[row.stage],
          source: blankIsNone(row.source),
          campaign: blankIsNone(row.campaign),
        })),
        nextCursor:
          rows.length > limit && last
            ? encodeListCursor({ query: queryKey, value: SORT_VALUE[sort](last), wallet: last.wallet })
            : null,
      };
    },
  };
}

function emptyListQuery(
  range: TimeRange,
  asOfDay: string,
  powerThreshold: number | null | undefined,
): WalletListQuery {
  return {
    range,
    asOfDay,
    powerThreshold,
    search: null,
    stage: null,
    source: null,
    campaign: null,
    chainId: null,
    country: null,
    sort: 'last_seen',
    descending: true,
    limit: 1,
    after: null,
  };
}

/** A timeline page as GraphQL answers it: its sessions, and the cursor of the older ones (null: none). */
function sessionPage(wallet: string, timeline: WalletTimeline) {
  return {
    sessions: sessionsOf(timeline.events),
    olderSessions: timeline.older ? encodeSessionsCursor(wallet, timeline.older) : null,
  };
}

/** The timeline's events grouped by session, in the order the store gave them. */
function sessionsOf(events: readonly WalletTimelineEvent[]) {
  return [...groupBy(events, (event) => event.sessionId)].map(([sessionId, sessionEvents]) => ({
    sessionId,
    startedAt: new Date(sessionEvents[0]?.timeMs ?? 0),
    endedAt: new Date(sessionEvents[sessionEvents.length - 1]?.timeMs ?? 0),
    events: sessionEvents.map((event) => ({ ...event, time: new Date(event.timeMs) })),
  }));
}
