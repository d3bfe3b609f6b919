// Run by test/startup-footprint.test.ts in a process of its own (`node --import tsx`): loads the server's
// modules (src/app.ts) as a fresh server does, and prints as JSON the Intl formatters made meanwhile and
// whether `@clickhouse/client` was loaded.
import { createRequire } from 'node:module';

const FORMATTERS = [
  'NumberFormat',
  'DateTimeFormat',
  'Collator',
  'PluralRules',
  'RelativeTimeFormat',
] as const;
const made: string[] = [];
for (const name of FORMATTERS) {
  const original = Intl[name];
  const counted = new Proxy(original, {
    construct(target, args) {
      made.push(`${name}(${JSON.stringify(args)})`);
      return Reflect.construct(target, args);
    },
  });
  Object.assign(Intl, { [name]: counted });
}

await import('../../src/app.ts');
const loaded = Object.keys(createRequire(import.meta.url).cache);
console.log(
  JSON.stringify({
    formatters: made,
    clickhouseDriver: loaded.some((file) => file.includes('/node_modules/@clickhouse/client/')),
    modules: loaded.length,
  }),
);
process.exit(0);
