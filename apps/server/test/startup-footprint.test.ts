import { afterEach, describe, expect, it } from 'vitest';

const FORMATTERS = [
  'NumberFormat',
  'DateTimeFormat',
  'Collator',
  'PluralRules',
  'RelativeTimeFormat',
] as const;

describe("the server's modules as they load", () => {
  const originals = new Map(FORMATTERS.map((name) => [name, Intl[name]]));
  afterEach(() => {
    for (const [name, original] of originals) Object.assign(Intl, { [name]: original });
  });

  // An Intl formatter reads ICU's data from the `node` binary: one NumberFormat keeps about 5 MB of its
  // pages resident for the process's lifetime. Made on first use, they stay out of an idle server's RSS
  // (docs/decisions/089).
  it('make no Intl formatter', async () => {
    const made: string[] = [];
    for (const [name, original] of originals) {
      const counted = new Proxy(original, {
        construct(target, args) {
          made.push(`${name}(${JSON.stringify(args)})`);
          return Reflect.construct(target, args);
        },
      });
      Object.assign(Intl, { [name]: counted });
    }
    await import('../src/app.ts');
    expect(made).toEqual([]);
  });
});
