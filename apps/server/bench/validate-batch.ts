/**
 * `npm run bench:validate`: µs per batch of the ingestion validator (createBatchValidator) on batches of
 * twenty realistic events (the SDK's batch size): page views, transactions with every field, and one
 * error with a 1.5 KB stack. Prints the median of several rounds; figures on a busy machine are noisy.
 */
import { createBatchValidator } from '../src/modules/ingestion/batch-validator.ts';
import { everyEventShape } from '../test/ingestion/wire-events.ts';

const shapes = everyEventShape();
const stack = `Error: execution reverted\n${'    at Contract.send (https://dapp.example/assets/index-4f2a.js:1:23456)\n'.repeat(20)}`;
function batch(round: number) {
  const events = Array.from({ length: 20 }, (_, index) => {
    const shape = shapes[index % shapes.length] as Record<string, unknown>;
    const event = { ...shape, id: `ev_${round}_${index}_abcdef` };
    return shape.type === 'error' && shape.stack ? { ...event, stack } : event;
  });
  return { apiKey: `pf_${'a'.repeat(32)}`, sdkVersion: '2.0.0', events };
}

const validate = createBatchValidator();
// Parsed JSON, as the route hands it over: fresh strings, not literals the engine interned.
const bodies = Array.from({ length: 500 }, (_, round) => JSON.parse(JSON.stringify(batch(round))));
for (const body of bodies) if (!validate(body).success) throw new Error('a benchmark batch is invalid');

const rounds: number[] = [];
for (let round = 0; round < 15; round++) {
  const started = process.hrtime.bigint();
  for (let repeat = 0; repeat < 20; repeat++) for (const body of bodies) validate(body);
  rounds.push(Number(process.hrtime.bigint() - started) / 1000 / (bodies.length * 20));
}
rounds.sort((a, b) => a - b);
const median = rounds[Math.floor(rounds.length / 2)] ?? 0;
console.log(
  `validator: ${median.toFixed(2)} µs per batch of 20 events (median of ${rounds.length} rounds; min ${rounds[0]?.toFixed(2)}, max ${rounds.at(-1)?.toFixed(2)})`,
);
