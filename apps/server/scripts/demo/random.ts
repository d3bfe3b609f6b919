/** A seeded PRNG (mulberry32) and the draws the demo generator needs: the same seed gives the same data. */
export type Random = ReturnType<typeof createRandom>;

export function createRandom(seed: number) {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let x = state;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number): number => min + Math.floor(next() * (max - min + 1));
  return {
    next,
    int,
    chance: (probability: number): boolean => next() < probability,
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T,
    /** Picks by weight: `[['MetaMask', 55], ['Rabby', 10]]`. */
    weighted: <T>(items: readonly (readonly [T, number])[]): T => {
      const total = items.reduce((sum, [, weight]) => sum + weight, 0);
      let roll = next() * total;
      for (const [item, weight] of items) {
        roll -= weight;
        if (roll < 0) return item;
      }
      return (items[items.length - 1] as readonly [T, number])[0];
    },
    /** Lower-case hex of `bytes` random bytes, 0x-prefixed. */
    hex: (bytes: number): string => {
      let out = '0x';
      for (let i = 0; i < bytes; i++) out += int(0, 255).toString(16).padStart(2, '0');
      return out;
    },
    /** Geometric count ≥ 1 with the given mean. */
    count: (mean: number): number => {
      let n = 1;
      while (next() > 1 / mean && n < 50) n++;
      return n;
    },
  };
}
