import { describe, expect, it } from 'vitest';
import { createRecentIds } from '../../src/modules/ingest-log/recent-ids.ts';

describe('recent ids', () => {
  it('are per project, and forget the oldest generation once two are full', () => {
    const recent = createRecentIds(2);
    recent.add('p1', 'a');
    recent.add('p1', 'b');
    expect(recent.has('p1', 'a')).toBe(true);
    expect(recent.has('p2', 'a')).toBe(false);
    recent.add('p1', 'c'); // a and b move to the previous generation
    expect(recent.has('p1', 'a')).toBe(true);
    recent.add('p1', 'd');
    recent.add('p1', 'e'); // c and d move; a and b are forgotten
    expect(recent.has('p1', 'a')).toBe(false);
    expect(recent.has('p1', 'c')).toBe(true);
  });

  it('forget an id of a failed append, even after a later add moved it to the previous generation', () => {
    const recent = createRecentIds(2);
    recent.add('p1', 'a');
    recent.add('p1', 'b');
    recent.add('p1', 'c');
    recent.delete('p1', 'a');
    recent.delete('p1', 'c');
    expect(recent.has('p1', 'a')).toBe(false);
    expect(recent.has('p1', 'b')).toBe(true);
    expect(recent.has('p1', 'c')).toBe(false);
  });
});
