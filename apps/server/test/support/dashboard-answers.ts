import { AcquisitionFilterKeys, AttributionDimensions } from '@polyflow/contracts/acquisition';
import type { EventReader } from '../../src/modules/event-store/event-store.ts';

const DAY_MS = 86_400_000;

/**
 * Maps and bigints as JSON can compare them, and lists as sets: two engines (or two files of one) may
 * order rows that tie on a question's sort key differently; the exact-answer suites check the orders.
 */
function plain(value: unknown): unknown {
  const json: unknown = JSON.parse(
    JSON.stringify(value, (_key, item) => {
      if (item instanceof Map) return [...item.entries()];
      if (typeof item === 'bigint') return item.toString();
      return item;
    }),
  );
  const sorted = (item: unknown): unknown => {
    if (Array.isArray(item)) {
      return item
        .map(sorted)
        .map((entry) => [JSON.stringify(entry), entry] as const)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([, entry]) => entry);
    }
    if (item && typeof item === 'object') {
      return Object.fromEntries(Object.entries(item).map(([key, entry]) => [key, sorted(entry)]));
    }
    return item;
  };
  return sorted(json);
}

/**
 * Every question a dashboard asks the event store about a project (Analytics, Live, Acquisition,
 * Incidents, the integration check), over the project's whole span by day (and a week in the middle),
 * answered through the port: two stores holding the same events answer the same. Questions about one
 * item (a transaction, an occurrence, a chain) take the first the lists name.
 */
export async function dashboardAnswers(
  store: EventReader,
  projectId: string,
): Promise<Record<string, unknown>> {
  const span = await store.eventSpan(projectId);
  if (!span) return { span };
  const fromMs = Math.floor(span.firstMs / DAY_MS) * DAY_MS;
  const toMs = (Math.floor(span.lastMs / DAY_MS) + 1) * DAY_MS;
  const all = { fromMs, toMs };
  const byDay = { ...all, bucketMs: DAY_MS, bucketCount: (toMs - fromMs) / DAY_MS };
  const midWeek = { fromMs: fromMs + Math.floor((toMs - fromMs) / DAY_MS / 2) * DAY_MS, toMs: 0 };
  midWeek.toMs = midWeek.fromMs + 7 * DAY_MS;

  const answers: Record<string, unknown> = { span };
  for (const [name, range] of [
    ['all', all],
    ['week', midWeek],
  ] as const) {
    answers[`walletCounts ${name}`] = await store.walletCounts(projectId, range);
    answers[`activeDays ${name}`] = await store.activeDays(projectId, range);
    answers[`contractFunctions ${name}`] = await store.contractFunctions(projectId, range, 50);
    answers[`walletProviders ${name}`] = await store.walletProviders(projectId, range);
    answers[`usersByCountry ${name}`] = await store.usersByCountry(projectId, range, 50);
    answers[`usersByBrowser ${name}`] = await store.usersByBrowser(projectId, range, 50);
    answers[`topPages ${name}`] = await store.topPages(projectId, range, 50);
    answers[`topReferrers ${name}`] = await store.topReferrers(projectId, range, 50);
    answers[`funnelCounts ${name}`] = await store.funnelCounts(projectId, range, {});
    answers[`filterOptions ${name}`] = await store.filterOptions(projectId, range);
    for (const dimension of AttributionDimensions) {
      answers[`attribution ${dimension} ${name}`] = await store.attributionCounts(
        projectId,
        range,
        dimension,
        {},
      );
    }
  }
  // The filter bar: each filterable attribute's most common value, one filter at a time.
  const options = await store.filterOptions(projectId, all);
  for (const key of AcquisitionFilterKeys) {
    const top = options[key][0];
    if (!top) continue;
    const filters = { [key]: [top.value] };
    answers[`funnelCounts ${key}=${top.value}`] = await store.funnelCounts(projectId, all, filters);
    answers[`attribution source ${key}=${top.value}`] = await store.attributionCounts(
      projectId,
      all,
      'source',
      filters,
    );
  }
  answers.connectedWallets = await store.connectedWallets(projectId, byDay);
  answers.newWallets = await store.newWallets(projectId, byDay);
  answers.transactionOutcomes = await store.transactionOutcomes(projectId, byDay);
  answers.averageGasPrice = await store.averageGasPrice(projectId, byDay, null);

  const history = await store.transactionHistory(projectId, all, { limit: 100, after: null });
  answers.transactionHistory = history;
  const lastOfPage = history.at(-1);
  if (lastOfPage) {
    answers.transactionHistoryNextPage = await store.transactionHistory(projectId, all, {
      limit: 100,
      after: { timeMs: lastOfPage.timeMs, id: lastOfPage.id },
    });
  }
  const chainId = history.find((row) => row.chainId !== null)?.chainId ?? null;
  if (chainId !== null)
    answers.averageGasPriceOnChain = await store.averageGasPrice(projectId, byDay, chainId);
  const transaction = [...history].sort((a, b) => (a.id < b.id ? -1 : 1))[0];
  if (transaction) {
    const stages = await store.transactionEvents(projectId, transaction.hash ?? transaction.id);
    answers.transactionEvents = stages;
    const sessionId = stages.find((stage) => stage.sessionId !== null)?.sessionId;
    if (sessionId && stages.length > 0) {
      answers.revertErrorNear = await store.revertErrorNear(projectId, {
        sessionId,
        fromMs: (stages[0] as { timeMs: number }).timeMs,
        toMs: (stages.at(-1) as { timeMs: number }).timeMs,
      });
    }
  }
  const lastMinuteMs = Math.floor(span.lastMs / 60_000) * 60_000;
  answers.recentActivity = await store.recentActivity(projectId, {
    fromMs: lastMinuteMs - 29 * 60_000,
    toMs: lastMinuteMs + 60_000,
    bucketMs: 60_000,
    bucketCount: 30,
  });
  answers.integrationSummary = await store.integrationSummary(projectId, new Date(midWeek.fromMs));

  const incidents = await store.incidentSummaries(projectId, all);
  answers.incidentSummaries = incidents;
  answers.activeUsersDuring = await store.activeUsersDuring(
    projectId,
    incidents.map((incident) => ({
      incidentId: incident.id,
      firstSeenMs: incident.firstSeenMs,
      lastSeenMs: incident.lastSeenMs,
    })),
  );
  const latest = [...incidents].sort((a, b) => (a.id < b.id ? -1 : 1))[0];
  if (latest) {
    answers.incidentDetail = await store.incidentSummaries(projectId, midWeek, { incidentId: latest.id });
    answers.incidentSearch = await store.incidentSummaries(projectId, all, {
      search: latest.title.slice(0, 8),
    });
    const occurrence = await store.occurrenceById(projectId, latest.latestEventId);
    answers.occurrence = occurrence;
    if (occurrence) answers.sessionTrail = await store.sessionTrail(projectId, occurrence);
  }
  return plain(answers) as Record<string, unknown>;
}
