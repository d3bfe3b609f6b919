import type { AlertPreviewFiring, AlertRuleCondition } from '@polyflow/contracts/alert-rules';
import { addTo, groupBy } from '../../lib/group-by.ts';
import type { AlertQuestions } from '../event-store/alert-questions.ts';
import {
  HOUR_MS,
  MINUTE_MS,
  newIncidentObservation,
  noEventsObservation,
  regressionObservation,
  severityAtLeast,
  spikeObservations,
  txFailRateObservation,
} from './conditions.ts';
import { decide, type Observation } from './decide.ts';
import type { IncidentFacts } from './evaluation.ts';
import type { SubjectState } from './store.ts';

export const PREVIEW_DAYS = 7;
/** A preview lists at most this many firings, the earliest first. */
export const MAX_PREVIEW_FIRINGS = 500;

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

/**
 * Prefix sums over a sparse bucket → value map, for the sum of any run of buckets in O(log n).
 */
function prefixSums(values: Map<number, number>) {
  const buckets = [...values.keys()].sort((a, b) => a - b);
  const sums: number[] = [];
  let total = 0;
  for (const bucket of buckets) {
    total += values.get(bucket) ?? 0;
    sums.push(total);
  }
  /** Index of the first bucket ≥ b. */
  const lower = (b: number) => {
    let lo = 0;
    let hi = buckets.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((buckets[mid] ?? 0) < b) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  /** Sum over buckets [from, to). */
  return (from: number, to: number) => {
    const a = lower(from);
    const b = lower(to);
    return (b > 0 ? (sums[b - 1] ?? 0) : 0) - (a > 0 ? (sums[a - 1] ?? 0) : 0);
  };
}

/**
 * What a rule would have fired over the last 7 days: the evaluation replayed at every step (evaluation
 * times at multiples of the step, as a cycle every `stepMs`), with its cooldown, from what the event store
 * holds now (docs/alerts.md#preview). Each question is asked once, cut into buckets that divide both the
 * step and a minute, so every replayed window is a whole run of buckets and its figures are exact.
 */
export async function previewRule(
  deps: { eventStore: AlertQuestions; incidents: IncidentFacts },
  {
    projectId,
    projectCreatedMs,
    condition,
    cooldownMinutes,
    nowMs,
    stepMs,
  }: {
    projectId: string;
    /** A silent project is counted from its creation at the earliest, as a rule from its own. */
    projectCreatedMs: number;
    condition: AlertRuleCondition;
    cooldownMinutes: number;
    nowMs: number;
    stepMs: number;
  },
): Promise<AlertPreviewFiring[]> {
  const bucketMs = gcd(stepMs, MINUTE_MS);
  const firstStep = Math.ceil((nowMs - PREVIEW_DAYS * 24 * HOUR_MS) / stepMs) * stepMs;
  const steps: number[] = [];
  for (let t = firstStep; t <= nowMs; t += stepMs) steps.push(t);
  const observe = await observer(deps, projectId, condition, {
    firstStep,
    nowMs,
    bucketMs,
    stepMs,
    projectCreatedMs,
  });
  const states = new Map<string, SubjectState>();
  const firings: AlertPreviewFiring[] = [];
  for (const t of steps) {
    const { decisions } = decide({ kind: condition.kind, cooldownMinutes }, await observe(t), states, t);
    for (const decision of decisions) {
      if (decision.type !== 'triggered') continue;
      firings.push({
        at: new Date(t).toISOString(),
        subject: decision.observation.subject,
        figures: decision.observation.figures,
      });
      if (firings.length >= MAX_PREVIEW_FIRINGS) return firings;
    }
  }
  return firings;
}

type Span = { firstStep: number; nowMs: number; bucketMs: number; stepMs: number; projectCreatedMs: number };

/** The first evaluation time after `ms` (an evaluation at t sees what happened before t). */
const stepAfter = (ms: number, stepMs: number) => Math.floor(ms / stepMs) * stepMs + stepMs;

async function observer(
  { eventStore, incidents }: { eventStore: AlertQuestions; incidents: IncidentFacts },
  projectId: string,
  condition: AlertRuleCondition,
  { firstStep, nowMs, bucketMs, stepMs, projectCreatedMs }: Span,
): Promise<(t: number) => Promise<Observation[]>> {
  switch (condition.kind) {
    case 'tx_fail_rate': {
      const params = condition.params;
      const windowMs = params.windowMinutes * MINUTE_MS;
      const origin = firstStep - windowMs;
      const rows = await eventStore.alertTxOutcomes([{ projectId, fromMs: origin, toMs: nowMs, bucketMs }]);
      const sumOf = (pick: 'total' | 'failed' | 'attempted') =>
        prefixSums(new Map(rows.map((row) => [row.bucket, row[pick]])));
      const total = sumOf('total');
      const failed = sumOf('failed');
      const attempted = sumOf('attempted');
      return async (t) => {
        const from = (t - windowMs - origin) / bucketMs;
        const to = (t - origin) / bucketMs;
        const counts = { total: total(from, to), failed: failed(from, to), attempted: attempted(from, to) };
        return [txFailRateObservation(projectId, params, counts)];
      };
    }
    case 'no_events': {
      const params = condition.params;
      const origin = firstStep - params.hours * HOUR_MS;
      const rows = await eventStore.alertLastEvents([{ projectId, fromMs: origin, toMs: nowMs, bucketMs }]);
      const lasts = rows.sort((a, b) => a.bucket - b.bucket);
      let next = 0;
      let lastMs: number | null = null;
      return async (t) => {
        while (next < lasts.length && (lasts[next]?.lastMs ?? Infinity) < t) {
          lastMs = lasts[next]?.lastMs ?? lastMs;
          next += 1;
        }
        return [noEventsObservation(projectId, params, lastMs, Math.max(origin, projectCreatedMs), t)];
      };
    }
    case 'incident_spike': {
      const params = condition.params;
      const windowMs = params.windowMinutes * MINUTE_MS;
      const origin = firstStep - windowMs;
      const rows = await eventStore.alertIncidentOccurrences([
        { projectId, fromMs: origin, toMs: nowMs, bucketMs },
      ]);
      const byIncident = [...groupBy(rows, (row) => row.incidentId)].map(([incidentId, list]) => ({
        incidentId,
        title: list[0]?.title ?? '',
        sum: prefixSums(new Map(list.map((row) => [row.bucket, row.occurrences]))),
      }));
      return async (t) => {
        const from = (t - windowMs - origin) / bucketMs;
        const to = (t - origin) / bucketMs;
        const counts = byIncident.map(({ incidentId, title, sum }) => ({
          incidentId,
          title,
          occurrences: sum(from, to),
        }));
        return spikeObservations(params, counts);
      };
    }
    case 'new_incident': {
      const { minSeverity } = condition.params;
      const origin = firstStep - stepMs;
      const rows = await eventStore.alertIncidentOccurrences([
        { projectId, fromMs: origin, toMs: nowMs, bucketMs: nowMs - origin },
      ]);
      const due = new Map<number, Observation[]>();
      for (const row of rows.filter((r) => r.firstSeenMs >= origin)) {
        const severity = await incidents.severityOf(projectId, row.incidentId, nowMs);
        if (!severityAtLeast(severity, minSeverity)) continue;
        const at = stepAfter(row.firstSeenMs, stepMs);
        addTo(due, at, newIncidentObservation(row, severity));
      }
      return async (t) => due.get(t) ?? [];
    }
    case 'incident_regression': {
      const origin = firstStep - stepMs;
      const [rows, resolved] = await Promise.all([
        eventStore.alertIncidentOccurrences([{ projectId, fromMs: origin, toMs: nowMs, bucketMs }]),
        incidents.resolvedIncidents([projectId]),
      ]);
      const byIncident = groupBy(rows, (row) => row.incidentId);
      const due = new Map<number, Observation[]>();
      for (const state of resolved) {
        // The bucket of the first occurrence after the resolve: it lies within one step, so the step after
        // the bucket is the evaluation that would have seen it.
        const first = (byIncident.get(state.incidentId) ?? [])
          .filter((row) => row.lastMs > state.resolvedAtMs)
          .sort((a, b) => a.bucket - b.bucket)[0];
        if (!first) continue;
        const at = stepAfter(origin + first.bucket * bucketMs + bucketMs - 1, stepMs);
        addTo(due, at, regressionObservation(first, state.resolvedAtMs, first.lastMs));
      }
      return async (t) => due.get(t) ?? [];
    }
  }
}
