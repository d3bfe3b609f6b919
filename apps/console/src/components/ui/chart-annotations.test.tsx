import type { Annotation } from '@polyflow/contracts/annotations';
import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { annotationsOnBuckets } from '../../lib/annotations';
import { setDisplayTimeZone } from '../../lib/format';
import { ChartAnnotations } from './chart-annotations';

const note = (id: string, startDate: string, endDate: string | null, text = id): Annotation => ({
  id,
  text,
  startDate,
  endDate,
  createdBy: 'ada@example.com',
  createdAt: '2026-03-01T00:00:00.000Z',
});

// Three local days of Europe/Berlin around the spring change: the middle one lasts 23 hours.
const BERLIN_DAYS = [
  { from: '2026-03-27T23:00:00.000Z', to: '2026-03-28T23:00:00.000Z' },
  { from: '2026-03-28T23:00:00.000Z', to: '2026-03-29T22:00:00.000Z' },
  { from: '2026-03-29T22:00:00.000Z', to: '2026-03-30T22:00:00.000Z' },
];

afterEach(() => setDisplayTimeZone('UTC'));

describe('annotations on a time chart', () => {
  it('places each annotation at the local day it starts in; one that started before at the first', () => {
    const placed = annotationsOnBuckets(
      [
        note('before', '2026-03-01', '2026-03-28'),
        note('change-day', '2026-03-29', null),
        note('last', '2026-03-30', null),
        note('after', '2026-03-31', null),
        note('long-ago', '2026-02-01', '2026-02-02'),
      ],
      BERLIN_DAYS,
      'Europe/Berlin',
    );
    expect(placed.map(({ annotation, index }) => [annotation.id, index])).toEqual([
      ['before', 0],
      ['change-day', 1],
      ['last', 2],
    ]);
    // In UTC, 30 March starts at 00:00 UTC: still inside the chart's last bucket.
    expect(annotationsOnBuckets([note('x', '2026-03-30', null)], BERLIN_DAYS, 'UTC')).toEqual([
      { annotation: note('x', '2026-03-30', null), index: 2 },
    ]);
  });

  it('is a keyboard-reachable flag per annotation whose note describes it', () => {
    setDisplayTimeZone('Europe/Berlin');
    render(
      <ChartAnnotations
        annotations={[note('a', '2026-03-29', null, 'Deployed v2.1'), note('b', '2026-04-10', null)]}
        buckets={BERLIN_DAYS}
        plotLeft={56}
        plotRight={12}
      />,
    );
    const flags = screen.getAllByRole('button');
    expect(flags).toHaveLength(1);
    const flag = flags[0] as HTMLElement;
    expect(flag.getAttribute('aria-label')).toBe('Annotation, 29 Mar 2026');
    const tip = document.getElementById(flag.getAttribute('aria-describedby') ?? '');
    expect(tip?.getAttribute('role')).toBe('tooltip');
    expect(tip?.textContent).toContain('Deployed v2.1');
    flag.focus();
    expect(document.activeElement).toBe(flag);
  });

  it('opens each note towards the middle of the chart, so that a note near an edge stays on screen', () => {
    render(
      <ChartAnnotations
        annotations={[
          note('a', '2026-03-28', null),
          note('b', '2026-03-29', null),
          note('c', '2026-03-30', null),
        ]}
        buckets={BERLIN_DAYS}
        plotLeft={0}
        plotRight={0}
      />,
    );
    const aligns = screen.getAllByRole('tooltip', { hidden: true }).map((tip) => tip.dataset.align);
    expect(aligns).toEqual(['start', 'middle', 'end']);
  });

  it('shows nothing when no annotation overlaps the chart', () => {
    const { container } = render(
      <ChartAnnotations
        annotations={[note('b', '2026-04-10', null)]}
        buckets={BERLIN_DAYS}
        plotLeft={0}
        plotRight={0}
      />,
    );
    expect(container.innerHTML).toBe('');
  });
});
