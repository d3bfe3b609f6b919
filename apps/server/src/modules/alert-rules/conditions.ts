import {
  type AlertRuleKind,
  AlertRuleParamsSchemas,
  type IncidentSpikeParams,
  type NoEventsParams,
  type TxFailRateParams,
} from '@polyflow/contracts/alert-rules';
import { Severities, type Severity } from '@polyflow/contracts/incidents';
import type { AlertIncidentOccurrences } from '../event-store/alert-questions.ts';
import type { Observation } from './decide.ts';

/**
 * Each kind's condition over what the event store answered (docs/alerts.md#rules): the observations
 * `decide` turns into firings. Shared by the live evaluation and the preview's replay.
 */

export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;
/** How far back `new_incident` and `incident_regression` look for occurrences (events load late). */
export const INCIDENT_LOOKBACK_MS = 24 * HOUR_MS;
/** How far back `no_events` looks for the last event: past the longest silence a rule waits for. */
export const LAST_EVENT_LOOKBACK_MS = 8 * 24 * HOUR_MS;

export type TxCounts = { total: number; failed: number; attempted: number };

const iso = (ms: number) => new Date(ms).toISOString();

/** The console's percent: one decimal (lib/format.ts), so a notice reads as the Analytics screen does. */
export const percentAsShown = (ratio: number) => Math.round(ratio * 1000) / 10;

/** Millionths of a percent: the finest threshold compared exactly (thresholds are 0–100). */
const THRESHOLD_SCALE = 1_000_000;

/**
 * Whether `failed / attempted` is above `thresholdPercent`, compared exactly in integers: as floating
 * point, 7 failed of 100 is 7.000000000000001 % and was "above" a 7 % threshold.
 */
export function isRateAbove(failed: number, attempted: number, thresholdPercent: number): boolean {
  if (attempted <= 0) return false;
  const threshold = BigInt(Math.round(thresholdPercent * THRESHOLD_SCALE));
  return BigInt(failed) * BigInt(100 * THRESHOLD_SCALE) > threshold * BigInt(attempted);
}

export function txFailRateObservation(
  projectId: string,
  params: TxFailRateParams,
  counts: TxCounts | undefined,
): Observation {
  const { total = 0, failed = 0, attempted = 0 } = counts ?? {};
  const rate = attempted > 0 ? failed / attempted : 0;
  return {
    subject: { kind: 'project', id: projectId },
    isMet: attempted >= params.minTransactions && isRateAbove(failed, attempted, params.thresholdPercent),
    figures: {
      failRatePercent: percentAsShown(rate),
      transactions: total,
      attempted,
      failed,
      windowMinutes: params.windowMinutes,
      thresholdPercent: params.thresholdPercent,
    },
  };
}

/**
 * Silent for `hours` since the later of its last event and `sinceMs` (the rule's creation: a rule does
 * not fire for a silence that began before anyone asked).
 */
export function noEventsObservation(
  projectId: string,
  params: NoEventsParams,
  lastEventMs: number | null,
  sinceMs: number,
  nowMs: number,
): Observation {
  const quietSinceMs = Math.max(lastEventMs ?? sinceMs, sinceMs);
  const figures: Record<string, number | string> = { hours: params.hours };
  if (lastEventMs !== null) figures.lastEventAt = iso(lastEventMs);
  return {
    subject: { kind: 'project', id: projectId },
    isMet: nowMs - quietSinceMs >= params.hours * HOUR_MS,
    figures,
  };
}

export function spikeObservations(
  params: IncidentSpikeParams,
  counts: readonly Pick<AlertIncidentOccurrences, 'incidentId' | 'title' | 'occurrences'>[],
): Observation[] {
  return counts
    .filter((count) => count.occurrences >= params.threshold)
    .map((count) => ({
      subject: { kind: 'incident', id: count.incidentId, title: count.title },
      isMet: true,
      figures: {
        occurrences: count.occurrences,
        windowMinutes: params.windowMinutes,
        threshold: params.threshold,
      },
    }));
}

export const severityAtLeast = (severity: Severity, min: Severity) =>
  Severities.indexOf(severity) >= Severities.indexOf(min);

export function newIncidentObservation(
  incident: Pick<AlertIncidentOccurrences, 'incidentId' | 'title' | 'firstSeenMs'>,
  severity: Severity,
): Observation {
  return {
    subject: { kind: 'incident', id: incident.incidentId, title: incident.title },
    isMet: true,
    figures: { severity, firstSeenAt: iso(incident.firstSeenMs) },
    marker: 'new',
  };
}

export function regressionObservation(
  incident: Pick<AlertIncidentOccurrences, 'incidentId' | 'title'>,
  resolvedAtMs: number,
  occurredAtMs: number,
): Observation {
  return {
    subject: { kind: 'incident', id: incident.incidentId, title: incident.title },
    isMet: true,
    figures: { resolvedAt: iso(resolvedAtMs), occurredAt: iso(occurredAtMs) },
    marker: iso(resolvedAtMs),
  };
}

/** A stored rule's params, parsed again with its kind's schema (they were checked when saved). */
export function paramsOf<K extends AlertRuleKind>(kind: K, params: unknown) {
  return AlertRuleParamsSchemas[kind].parse(params) as ReturnType<
    (typeof AlertRuleParamsSchemas)[K]['parse']
  >;
}

/** The console screen a notice links to. */
export function consoleUrl(
  publicUrl: string,
  projectId: string,
  kind: AlertRuleKind,
  subjectId: string,
): string {
  const base = `${publicUrl.replace(/\/$/, '')}/console/${encodeURIComponent(projectId)}`;
  if (kind === 'tx_fail_rate') return `${base}/analytics`;
  if (kind === 'no_events') return `${base}/live`;
  return `${base}/errorlogs/${encodeURIComponent(subjectId)}`;
}
