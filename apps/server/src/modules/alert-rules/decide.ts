import type { AlertRuleKind, AlertSubject } from '@polyflow/contracts/alert-rules';
import type { SubjectState } from './store.ts';

/** What one evaluation saw of one subject of a rule. */
export type Observation = {
  subject: AlertSubject;
  /** Whether the rule's condition holds for the subject now. */
  isMet: boolean;
  figures: Record<string, number | string>;
  /** Fire-once kinds: what the firing is for (a regression: the resolve it follows). */
  marker?: string;
};

export type Decision = {
  type: 'triggered' | 'resolved';
  observation: Observation;
};

/** Kinds whose condition holds for a while and then clears: they fire once until it clears. */
const CONDITION_KINDS = new Set<AlertRuleKind>(['tx_fail_rate', 'no_events', 'incident_spike']);
/** Of those, the kinds that also notify when it clears (issue 27). */
export const RESOLVING_KINDS = new Set<AlertRuleKind>(['tx_fail_rate', 'no_events']);

export type RuleForDecision = { kind: AlertRuleKind; cooldownMinutes: number };

/**
 * One rule's decisions at `nowMs` from its observations and its subjects' states, and the states after
 * them (`states` is updated in place; the changed subjects are returned). The same function decides the
 * live evaluation and the preview's replay (docs/alerts.md#evaluation):
 * - a condition (`tx_fail_rate`, `no_events`, `incident_spike`) triggers when it starts to hold for a
 *   subject, unless the subject fired less than `cooldownMinutes` ago; it is then firing until it
 *   clears, which sends `resolved` for `tx_fail_rate` and `no_events` (silently for a spike);
 * - an event (`new_incident`, `incident_regression`) triggers once per subject and marker: an incident is
 *   new once, a regression is one per resolve.
 */
export function decide(
  rule: RuleForDecision,
  observations: readonly Observation[],
  states: Map<string, SubjectState>,
  nowMs: number,
): { decisions: Decision[]; changed: Set<string> } {
  const decisions: Decision[] = [];
  const changed = new Set<string>();
  const cooldownMs = rule.cooldownMinutes * 60_000;
  const seen = new Set<string>();
  for (const observation of observations) {
    const id = observation.subject.id;
    seen.add(id);
    const state = states.get(id);
    if (!CONDITION_KINDS.has(rule.kind)) {
      if (!observation.isMet) continue;
      const marker = observation.marker ?? null;
      if (state && state.marker === marker) continue;
      decisions.push({ type: 'triggered', observation });
      states.set(id, { isFiring: false, lastFiredAtMs: nowMs, marker });
      changed.add(id);
      continue;
    }
    if (observation.isMet && !state?.isFiring) {
      const isCooling = state?.lastFiredAtMs != null && nowMs - state.lastFiredAtMs < cooldownMs;
      if (isCooling) continue;
      decisions.push({ type: 'triggered', observation });
      states.set(id, { isFiring: true, lastFiredAtMs: nowMs, marker: null });
      changed.add(id);
    } else if (!observation.isMet && state?.isFiring) {
      if (RESOLVING_KINDS.has(rule.kind)) decisions.push({ type: 'resolved', observation });
      states.set(id, { ...state, isFiring: false });
      changed.add(id);
    }
  }
  // A spike's incident that no longer shows up at all has cleared too.
  if (rule.kind === 'incident_spike') {
    for (const [id, state] of states) {
      if (state.isFiring && !seen.has(id)) {
        states.set(id, { ...state, isFiring: false });
        changed.add(id);
      }
    }
  }
  return { decisions, changed };
}
