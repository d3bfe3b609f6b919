import { describe, expect, it } from 'vitest';
import { factsOf, stageOf } from '../../src/modules/event-store/wallet-questions.ts';

/** The wallet page's stage (TypeScript) applies the same rules as the engines' counts (test/wallets/fixture.ts). */
describe('one wallet’s stage from its active days', () => {
  const stage = (days: string[], asOf: string, threshold: number | null) => {
    const facts = factsOf(days, asOf);
    return facts && stageOf(facts, threshold);
  };

  it('gives the fixture’s wallets the stages the lifecycle counts give them as of 05-31 (threshold 5)', () => {
    const asOf = '2024-05-31';
    expect(stage(['2024-05-28'], asOf, 5)).toBe('new');
    expect(stage(['2024-03-01', '2024-05-20'], asOf, 5)).toBe('resurrected');
    expect(
      stage(
        ['2024-04-01', '2024-04-15', '2024-05-20', '2024-05-22', '2024-05-24', '2024-05-26', '2024-05-30'],
        asOf,
        5,
      ),
    ).toBe('power');
    expect(stage(['2024-04-01', '2024-04-20', '2024-05-25'], asOf, 5)).toBe('active');
    expect(stage(['2024-05-10', '2024-05-30'], asOf, 5)).toBe('active');
    expect(stage(['2024-04-10', '2024-05-10'], asOf, 5)).toBe('at_risk');
    expect(stage(['2024-03-15', '2024-04-20'], asOf, 5)).toBe('churned');
    expect(stage(['2024-04-02'], asOf, 5)).toBe('churned');
  });

  it('ignores days after the as-of day, and has no stage before the first one', () => {
    expect(stage(['2024-05-28'], '2024-04-30', 2)).toBeNull();
    expect(stage(['2024-04-01', '2024-04-15', '2024-05-20'], '2024-04-30', 2)).toBe('at_risk');
    // 13 and 14 days back: the edge of "recently active".
    expect(stage(['2024-01-01', '2024-03-20', '2024-04-17'], '2024-04-30', 2)).toBe('active');
    expect(stage(['2024-01-01', '2024-03-20', '2024-04-16'], '2024-04-30', 2)).toBe('at_risk');
    // Quiet for the 28 days before the last 28, seen before them: back from churned.
    expect(stage(['2024-01-01', '2024-04-17'], '2024-04-30', 2)).toBe('resurrected');
  });
});
