import type { Severity } from '@polyflow/contracts/incidents';
import type { Clock } from '../../lib/clock.ts';
import { groupBy } from '../../lib/group-by.ts';
import { newId } from '../../lib/ids.ts';
import type { AlertQuestions, AlertWindow } from '../event-store/alert-questions.ts';
import {
  consoleUrl,
  INCIDENT_LOOKBACK_MS,
  LAST_EVENT_LOOKBACK_MS,
  MINUTE_MS,
  newIncidentObservation,
  noEventsObservation,
  paramsOf,
  regressionObservation,
  severityAtLeast,
  spikeObservations,
  txFailRateObservation,
} from './conditions.ts';
import { decide, type Observation } from './decide.ts';
import type { AlertNotice, Notify } from './notice.ts';
import type { AlertRuleStore, NewFiring, StateChange, StoredRule, SubjectState } from './store.ts';

/** What the rules need of the incidents module: resolves (incident_states) and lifetime severity. */
export type IncidentFacts = {
  resolvedIncidents(projectIds: readonly string[]): Promise<ResolvedIncident[]>;
  severityOf(projectId: string, incidentId: string, nowMs: number): Promise<Severity>;
};
export type ResolvedIncident = { projectId: string; incidentId: string; resolvedAtMs: number };

export type EvaluationDeps = {
  store: AlertRuleStore;
  eventStore: AlertQuestions;
  incidents: IncidentFacts;
  notify: Notify;
  clock: Clock;
  publicUrl: string;
};

export type EvaluationResult = { rules: number; triggered: number; resolved: number; durationMs: number };

/** Windows asked once however many rules share them; a rule finds its window's index by key. */
class WindowList {
  readonly windows: AlertWindow[] = [];
  private readonly indexes = new Map<string, number>();
  add(window: AlertWindow): number {
    const key = `${window.projectId}|${window.fromMs}|${window.toMs}|${window.bucketMs}`;
    let index = this.indexes.get(key);
    if (index === undefined) {
      index = this.windows.length;
      this.windows.push(window);
      this.indexes.set(key, index);
    }
    return index;
  }
}

const lastWindow = (projectId: string, nowMs: number, lengthMs: number): AlertWindow => ({
  projectId,
  fromMs: nowMs - lengthMs,
  toMs: nowMs,
  bucketMs: lengthMs,
});

/**
 * One evaluation of every rule that is not paused, at the clock's now (docs/alerts.md#evaluation): three
 * questions of the event store for all projects at once, each rule decided from their answers and its
 * subjects' states, the firings and new states stored in one transaction, then each firing's notice
 * handed to the channels (`notify`) and marked as handed over. A firing stored but not handed over (a
 * crash in between, `notify` failing) is handed over by the next evaluation, with the same notice id.
 */
export function createEvaluation(deps: EvaluationDeps) {
  const { store, eventStore, incidents, clock, publicUrl } = deps;

  function noticeOf(rule: StoredRule, firing: NewFiring): AlertNotice {
    return {
      id: firing.id,
      type: firing.type === 'triggered' ? 'alert.triggered' : 'alert.resolved',
      project: { id: rule.projectId, name: rule.projectName },
      rule: { id: rule.id, name: rule.name, kind: rule.kind },
      at: firing.at,
      subject: firing.subject,
      figures: firing.figures,
      url: consoleUrl(publicUrl, rule.projectId, rule.kind, firing.subject.id),
    };
  }

  async function handOver(rule: StoredRule, firing: NewFiring): Promise<boolean> {
    try {
      await deps.notify(noticeOf(rule, firing), rule.channelIds);
      await store.markNotified(firing.id, clock().toISOString());
      return true;
    } catch {
      return false;
    }
  }

  /** Notices stored by an earlier evaluation and not handed over yet. */
  async function handOverLeftovers(): Promise<void> {
    for (const firing of await store.unnotified(1000)) {
      if (!(await handOver(firing.rule, { ...firing, ruleId: firing.ruleId }))) break;
    }
  }

  async function observe(rules: readonly StoredRule[], nowMs: number) {
    const tx = new WindowList();
    const occurrences = new WindowList();
    const lastEvents = new WindowList();
    const windowOf = new Map<string, number>();
    const lookbackOf = new Map<string, number>();
    for (const rule of rules) {
      if (rule.kind === 'tx_fail_rate') {
        const params = paramsOf('tx_fail_rate', rule.params);
        windowOf.set(rule.id, tx.add(lastWindow(rule.projectId, nowMs, params.windowMinutes * MINUTE_MS)));
      } else if (rule.kind === 'incident_spike') {
        const params = paramsOf('incident_spike', rule.params);
        windowOf.set(
          rule.id,
          occurrences.add(lastWindow(rule.projectId, nowMs, params.windowMinutes * MINUTE_MS)),
        );
      } else if (rule.kind === 'no_events') {
        windowOf.set(rule.id, lastEvents.add(lastWindow(rule.projectId, nowMs, LAST_EVENT_LOOKBACK_MS)));
      } else {
        lookbackOf.set(rule.id, occurrences.add(lastWindow(rule.projectId, nowMs, INCIDENT_LOOKBACK_MS)));
      }
    }
    const regressionProjects = [
      ...new Set(rules.filter((r) => r.kind === 'incident_regression').map((r) => r.projectId)),
    ];
    const [txRows, occurrenceRows, lastEventRows, resolved] = await Promise.all([
      eventStore.alertTxOutcomes(tx.windows),
      eventStore.alertIncidentOccurrences(occurrences.windows),
      eventStore.alertLastEvents(lastEvents.windows),
      regressionProjects.length > 0 ? incidents.resolvedIncidents(regressionProjects) : [],
    ]);
    const txByWindow = new Map(txRows.map((row) => [row.window, row]));
    const lastByWindow = new Map(lastEventRows.map((row) => [row.window, row.lastMs]));
    const occurrencesByWindow = groupBy(occurrenceRows, (row) => row.window);
    const resolvedByProject = groupBy(resolved, (row) => row.projectId);
    const severities = new Map<string, Promise<Severity>>();
    const severityOf = (projectId: string, incidentId: string) => {
      const key = `${projectId}|${incidentId}`;
      let severity = severities.get(key);
      if (!severity) {
        severity = incidents.severityOf(projectId, incidentId, nowMs);
        severities.set(key, severity);
      }
      return severity;
    };

    return async (rule: StoredRule, states: Map<string, SubjectState>): Promise<Observation[]> => {
      const createdMs = Date.parse(rule.createdAt);
      switch (rule.kind) {
        case 'tx_fail_rate':
          return [
            txFailRateObservation(
              rule.projectId,
              paramsOf('tx_fail_rate', rule.params),
              txByWindow.get(windowOf.get(rule.id) ?? -1),
            ),
          ];
        case 'no_events':
          return [
            noEventsObservation(
              rule.projectId,
              paramsOf('no_events', rule.params),
              lastByWindow.get(windowOf.get(rule.id) ?? -1) ?? null,
              createdMs,
              nowMs,
            ),
          ];
        case 'incident_spike':
          return spikeObservations(
            paramsOf('incident_spike', rule.params),
            occurrencesByWindow.get(windowOf.get(rule.id) ?? -1) ?? [],
          );
        case 'new_incident': {
          const { minSeverity } = paramsOf('new_incident', rule.params);
          // An incident the rule fired for is not new any more: its severity is not asked again.
          const fresh = (occurrencesByWindow.get(lookbackOf.get(rule.id) ?? -1) ?? []).filter(
            (row) =>
              row.firstSeenMs >= Math.max(createdMs, nowMs - INCIDENT_LOOKBACK_MS) &&
              !states.has(row.incidentId),
          );
          const observations: Observation[] = [];
          for (const incident of fresh) {
            // Asked at every minimum, `low` included: the notice reports the incident's own severity.
            const severity = await severityOf(rule.projectId, incident.incidentId);
            if (severityAtLeast(severity, minSeverity))
              observations.push(newIncidentObservation(incident, severity));
          }
          return observations;
        }
        case 'incident_regression': {
          const rows = occurrencesByWindow.get(lookbackOf.get(rule.id) ?? -1) ?? [];
          const latest = new Map(rows.map((row) => [row.incidentId, row]));
          return (resolvedByProject.get(rule.projectId) ?? []).flatMap((state) => {
            const row = latest.get(state.incidentId);
            if (!row || row.lastMs <= state.resolvedAtMs || row.lastMs < createdMs) return [];
            return [regressionObservation(row, state.resolvedAtMs, row.lastMs)];
          });
        }
      }
    };
  }

  return {
    async evaluate(): Promise<EvaluationResult> {
      const started = performance.now();
      await handOverLeftovers();
      const nowMs = clock().getTime();
      const rules = await store.activeRules();
      const observationsOf = await observe(rules, nowMs);
      const states = await store.statesOf(rules.map((rule) => rule.id));
      const firings: { rule: StoredRule; firing: NewFiring }[] = [];
      const changes: StateChange[] = [];
      for (const rule of rules) {
        const ruleStates = states.get(rule.id) ?? new Map<string, SubjectState>();
        const { decisions, changed } = decide(
          rule,
          await observationsOf(rule, ruleStates),
          ruleStates,
          nowMs,
        );
        for (const decision of decisions) {
          firings.push({
            rule,
            firing: {
              id: newId(),
              ruleId: rule.id,
              type: decision.type,
              subject: decision.observation.subject,
              figures: decision.observation.figures,
              at: new Date(nowMs).toISOString(),
            },
          });
        }
        for (const subjectId of changed) {
          const state = ruleStates.get(subjectId);
          if (state) changes.push({ ruleId: rule.id, subjectId, state });
        }
      }
      await store.record(
        firings.map(({ firing }) => firing),
        changes,
      );
      for (const { rule, firing } of firings) await handOver(rule, firing);
      return {
        rules: rules.length,
        triggered: firings.filter(({ firing }) => firing.type === 'triggered').length,
        resolved: firings.filter(({ firing }) => firing.type === 'resolved').length,
        durationMs: performance.now() - started,
      };
    },
  };
}
