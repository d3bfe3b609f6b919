import { describe, expect, it } from 'vitest';
import { decide, type Observation } from '../../src/modules/alert-rules/decide.ts';
import type { SubjectState } from '../../src/modules/alert-rules/store.ts';

const MINUTE = 60_000;
const project = { kind: 'project', id: 'p1' } as const;
const incident = { kind: 'incident', id: 'i1', title: 'TypeError' } as const;

/** One rule's decisions over a clock moved by hand (minutes from 0), its states kept between steps. */
function ruleOver(rule: Parameters<typeof decide>[0]) {
  const states = new Map<string, SubjectState>();
  return {
    states,
    at(minute: number, observations: Observation[]) {
      return decide(rule, observations, states, minute * MINUTE).decisions.map((d) => d.type);
    },
  };
}

describe('decide: the cooldown', () => {
  it('holds a condition back within the cooldown as firing, without a late trigger or a resolved', () => {
    const rule = ruleOver({ kind: 'tx_fail_rate', cooldownMinutes: 2 });
    const holds = [{ subject: project, isMet: true, figures: {} }];
    const clears = [{ subject: project, isMet: false, figures: {} }];
    expect(rule.at(0, holds)).toEqual(['triggered']);
    expect(rule.at(1, clears)).toEqual(['resolved']);
    // Holds again within the cooldown: firing, nothing sent.
    expect(rule.at(1.5, holds)).toEqual([]);
    expect(rule.states.get('p1')?.isFiring).toBe(true);
    // The cooldown ends while it still holds: the same holding, no trigger.
    expect(rule.at(2, holds)).toEqual([]);
    expect(rule.at(3, holds)).toEqual([]);
    // It clears: nothing was sent about it, so no resolved either.
    expect(rule.at(4, clears)).toEqual([]);
    expect(rule.states.get('p1')?.isFiring).toBe(false);
    // Holding again after the cooldown fires as usual, and its clearing is sent.
    expect(rule.at(5, holds)).toEqual(['triggered']);
    expect(rule.at(6, clears)).toEqual(['resolved']);
  });

  it('keeps a regression of the same incident within the cooldown from triggering, then or later', () => {
    const rule = ruleOver({ kind: 'incident_regression', cooldownMinutes: 60 });
    const regression = (resolvedAt: string) => [
      { subject: incident, isMet: true, figures: {}, marker: resolvedAt },
    ];
    expect(rule.at(0, regression('r1'))).toEqual(['triggered']);
    // Resolved again and occurring again 15 s later: within the cooldown.
    expect(rule.at(0.25, regression('r2'))).toEqual([]);
    expect(rule.at(61, regression('r2'))).toEqual([]);
    // Another resolve after the cooldown: a trigger.
    expect(rule.at(62, regression('r3'))).toEqual(['triggered']);
    // Without a cooldown every resolve triggers.
    const eager = ruleOver({ kind: 'incident_regression', cooldownMinutes: 0 });
    expect(eager.at(0, regression('r1'))).toEqual(['triggered']);
    expect(eager.at(0.25, regression('r2'))).toEqual(['triggered']);
  });
});
