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

/**
 * The marker of a condition's firing held back by the cooldown (conditions have no marker otherwise): it
 * was never notified, so its clearing is not either.
 */
const HELD_BACK = 'held-back-by-cooldown';

export type RuleForDecision = { kind: AlertRuleKind; cooldownMinutes: number };

/**
 * One rule's decisions at `nowMs` from its observations and its subjects' states, and the states after
 * them (`states` is updated in place; the changed subjects are returned). The same function decides the
 * live evaluation and the preview's replay (docs/alerts.md#evaluation):
 * - a condition (`tx_fail_rate`, `no_events`, `incident_spike`) triggers when it starts to hold for a
 *   subject; it is then firing until it clears, which sends `resolved` for `tx_fail_rate` and `no_events`
 *   (silently for a spike). One that starts to hold less than `cooldownMinutes` after the subject's last
 *   trigger is firing too, held back: no trigger, not when the cooldown ends either (it is the same
 *   holding), and no `resolved` when it clears (nothing was sent about it);
 * - an event (`new_incident`, `incident_regression`) triggers once per subject and marker: an incident is
 *   new once, a regression is one per resolve. One within the cooldown of the subject's last trigger is
 *   taken as seen without a trigger (the cooldown covers every kind: docs/alerts.md#evaluation).
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
    const isCooling = state?.lastFiredAtMs != null && nowMs - state.lastFiredAtMs < cooldownMs;
    if (!CONDITION_KINDS.has(rule.kind)) {
      if (!observation.isMet) continue;
      const marker = observation.marker ?? null;
      if (state && state.marker === marker) continue;
      if (state && isCooling) {
        states.set(id, { ...state, marker });
        changed.add(id);
        continue;
      }
      decisions.push({ type: 'triggered', observation });
      states.set(id, { isFiring: false, lastFiredAtMs: nowMs, marker });
      changed.add(id);
      continue;
    }
    if (observation.isMet && !state?.isFiring) {
      if (state && isCooling) {
        states.set(id, { isFiring: true, lastFiredAtMs: state.lastFiredAtMs, marker: HELD_BACK });
        changed.add(id);
        continue;
      }
      decisions.push({ type: 'triggered', observation });
      states.set(id, { isFiring: true, lastFiredAtMs: nowMs, marker: null });
      changed.add(id);
    } else if (!observation.isMet && state?.isFiring) {
      const wasNotified = state.marker !== HELD_BACK;
      if (wasNotified && RESOLVING_KINDS.has(rule.kind)) decisions.push({ type: 'resolved', observation });
      states.set(id, { ...state, isFiring: false, marker: null });
      changed.add(id);
    }
  }
  // A spike's incident that no longer shows up at all has cleared too.
  if (rule.kind === 'incident_spike') {
    for (const [id, state] of states) {
      if (state.isFiring && !seen.has(id)) {
        states.set(id, { ...state, isFiring: false, marker: null });
        changed.add(id);
      }
    }
  }
  return { decisions, changed };
}
