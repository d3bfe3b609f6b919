import { BatchSchema } from '@polyflow/contracts/events';
import { isStorableText, LABEL_PATTERN, TEXT_PATTERN } from '@polyflow/contracts/text';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { compileJsonSchema } from '../../src/lib/compile-json-schema.ts';
import { createBatchValidator, FAST_TEXT_PATTERNS } from '../../src/modules/ingestion/batch-validator.ts';
import { everyEventShape } from './wire-events.ts';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Replacement values for a leaf: types, boundaries of every length and bound in the contract. */
const LENGTHS = [0, 1, 7, 8, 9, 32, 33, 64, 65, 78, 79, 128, 129, 256, 257, 2048, 2049, 16384, 16385];
const REPLACEMENTS: Json[] = [
  null,
  true,
  [],
  {},
  0,
  -0,
  -1,
  1,
  1.5,
  2 ** 53 - 1,
  2 ** 53,
  8.64e15,
  8.64e15 + 1,
  1e300,
  -(2 ** 53),
  ...LENGTHS.map((length) => 'a'.repeat(length)),
  ...LENGTHS.map((length) => '7'.repeat(length)),
  // Astral characters: two UTF-16 code units each, which is how zod counts.
  ...[32, 33, 128, 129].map((count) => '😀'.repeat(count)),
  // What the stores cannot hold (contracts/text.ts), and its harmless neighbours.
  '\u0000',
  'user\u0000x',
  '\ud800',
  'a\ud800b',
  '\udc00x',
  'x\ud83d',
  '\ud83d\ud83d\ude00',
  '\ud83d\ude00',
  'tab\there',
  'line\nbreak\r\n',
  '\u001b[31mred',
  '\u007f',
  '\u0085',
  '\u009f',
  '\u00a0',
  '\u2028',
  '\ufffd',
  '0x',
  `0x${'a'.repeat(40)}`,
  `0x${'A'.repeat(40)}`,
  `0x${'a'.repeat(39)}`,
  `0x${'g'.repeat(40)}`,
  `0x${'f'.repeat(64)}`,
  `0x${'f'.repeat(65)}`,
  '0xA9059CBB',
  '0xa9059cbb00',
  '12a',
  '-1',
  'ev_ok_id_123',
  'ev bad id',
  'page_view',
  'tx',
  'signature',
  'error',
  'confirmed',
  'signed',
  'coin',
  'personal_sign',
  'window',
  'sdk',
];

/** Every path to a value inside `value` (objects and arrays), the root excluded. */
function paths(value: Json, prefix: (string | number)[] = []): (string | number)[][] {
  if (value === null || typeof value !== 'object') return [];
  const keys: (string | number)[] = Array.isArray(value)
    ? value.map((_, index) => index)
    : Object.keys(value);
  return keys.flatMap((key) => {
    const child = (value as Record<string | number, Json>)[key] as Json;
    return [[...prefix, key], ...paths(child, [...prefix, key])];
  });
}

function withChange(
  value: Json,
  path: (string | number)[],
  change: (parent: Record<string, Json>, key: string) => void,
) {
  const copy = structuredClone(value);
  let parent = copy as Record<string, Json>;
  for (const key of path.slice(0, -1)) parent = parent[key as string] as Record<string, Json>;
  change(parent, path.at(-1) as string);
  return copy;
}

/** Valid batches and, from each, every field deleted, replaced by every value above, or joined by a stranger. */
function corpus(): Json[] {
  const events = [...everyEventShape(), ...customEventShapes()] as unknown as Json[];
  const batches: Json[] = [
    { apiKey: 'pk_test', events },
    { apiKey: 'pk_test', sdkVersion: '1.2.3', events: [events[0] as Json] },
  ];
  const cases: Json[] = [...batches];
  for (const event of events) {
    const batch = { apiKey: 'pk_test', sdkVersion: '0.1.0', events: [event] } as Json;
    cases.push(batch);
    for (const path of paths(batch)) {
      cases.push(withChange(batch, path, (parent, key) => delete parent[key]));
      for (const replacement of REPLACEMENTS) {
        cases.push(withChange(batch, path, (parent, key) => (parent[key] = replacement)));
      }
      cases.push(
        withChange(batch, path, (parent) => {
          if (!Array.isArray(parent)) parent.unexpected = 'x';
        }),
      );
    }
  }
  cases.push(
    { apiKey: 'pk_test', release: 'v1', events: [events[1] as Json] },
    { apiKey: 'pk_test', events: [withProps(20)] },
    { apiKey: 'pk_test', events: [withProps(21)] },
    {
      apiKey: 'pk_test',
      events: [{ ...(events[1] as object), type: 'custom', name: 'x', props: { a: { b: 1 } } }],
    },
    { apiKey: 'pk_test', events: [{ ...(events[1] as object), type: 'custom', name: 'x', props: ['a'] }] },
    JSON.parse(
      '{"apiKey":"pk_test","events":[{"id":"custom_p01","type":"custom","name":"n","ts":1,"userId":"u","sessionId":"s","path":"/","props":{"__proto__":"x"}}]}',
    ),
    { apiKey: 'pk_test', events: [] },
    { apiKey: 'pk_test', events: Array.from({ length: 100 }, () => events[1] as Json) },
    { apiKey: 'pk_test', events: Array.from({ length: 101 }, () => events[1] as Json) },
    JSON.parse(
      '{"apiKey":"pk_test","events":[{"__proto__":{"x":1},"id":"page_min01","type":"page_view","ts":1,"userId":"u","sessionId":"s","path":"/"}]}',
    ),
    JSON.parse(
      '{"apiKey":"pk_test","__proto__":null,"events":[{"id":"page_min01","type":"page_view","ts":1,"userId":"u","sessionId":"s","path":"/"}]}',
    ),
    null,
    [],
    'batch',
    42,
  );
  return cases;
}

/** Custom events and identifies, with properties of every kind (docs/custom-events.md). */
function customEventShapes(): Json[] {
  const base = { ts: 1_700_000_000_000, userId: 'u1', sessionId: 's1', path: '/' };
  return [
    {
      ...base,
      id: 'custom_f01',
      type: 'custom',
      name: 'swap_quote_shown',
      props: { pair: 'ETH/USDC', amount: 1.5, ok: true },
    },
    { ...base, id: 'custom_m01', type: 'custom', name: 'bridge_started' },
    { ...base, id: 'ident_f001', type: 'identify', appUserId: 'acct-42', traits: { plan: 'pro', seats: 3 } },
    { ...base, id: 'ident_m001', type: 'identify', appUserId: 'acct-43' },
  ];
}

const withProps = (count: number): Json => ({
  id: 'custom_n01',
  type: 'custom',
  name: 'many',
  ts: 1,
  userId: 'u',
  sessionId: 's',
  path: '/',
  props: Object.fromEntries(Array.from({ length: count }, (_, i) => [`k${i}`, i])),
});

describe('the compiled batch validator', () => {
  it.each([
    ['with the patterns as regular expressions', new Map()],
    ['with the fast text checks (production)', FAST_TEXT_PATTERNS],
  ])('accepts exactly the batches zod accepts, %s', (_, fastPatterns) => {
    const compiled = compileJsonSchema(z.toJSONSchema(BatchSchema, { io: 'input' }), fastPatterns);
    const cases = corpus();
    let valid = 0;
    const disagreements: string[] = [];
    for (const candidate of cases) {
      const byZod = BatchSchema.safeParse(candidate).success;
      if (byZod) valid++;
      if (compiled(candidate) !== byZod)
        disagreements.push(
          `${byZod ? 'zod accepts' : 'zod refuses'}: ${JSON.stringify(candidate).slice(0, 300)}`,
        );
    }
    expect(disagreements).toEqual([]);
    // The corpus exercises both answers in numbers.
    expect(cases.length).toBeGreaterThan(5_000);
    expect(valid).toBeGreaterThan(300);
    expect(cases.length - valid).toBeGreaterThan(3_000);
  });

  it('returns the batch as it came when valid, and zod issues naming the field when not', () => {
    const validate = createBatchValidator();
    const batch = { apiKey: 'pk_test', events: everyEventShape() };
    const valid = validate(batch);
    expect(valid).toEqual({ success: true, data: batch });
    const broken = { apiKey: 'pk_test', events: [{ ...everyEventShape()[0], ts: -5 }] };
    const result = validate(broken);
    expect(result.success).toBe(false);
    if (!result.success) expect(result.error.issues[0]?.path).toEqual(['events', 0, 'ts']);
  });

  it('checks text in one loop exactly as the contract patterns do', () => {
    // Every UTF-16 unit class that matters, in random strings of up to six units.
    const units = [0x00, 0x09, 0x0a, 0x0d, 0x1f, 0x20, 0x41, 0x7e, 0x7f, 0x80, 0x9f, 0xa0, 0x2028];
    units.push(0xd7ff, 0xd800, 0xdbff, 0xdc00, 0xdfff, 0xe000, 0xfffd, 0xffff);
    let seed = 7;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const disagreements: string[] = [];
    for (let round = 0; round < 20_000; round++) {
      const length = Math.floor(random() * 7);
      const text = String.fromCharCode(
        ...Array.from({ length }, () => units[Math.floor(random() * units.length)] as number),
      );
      if (isStorableText(text, false) !== LABEL_PATTERN.test(text))
        disagreements.push(`label ${JSON.stringify(text)}`);
      if (isStorableText(text, true) !== TEXT_PATTERN.test(text))
        disagreements.push(`text ${JSON.stringify(text)}`);
    }
    expect(disagreements).toEqual([]);
    expect(isStorableText('wallet 😀', false)).toBe(true);
    expect(isStorableText('a\ud800b', true)).toBe(false);
  });

  it('refuses to compile keywords it cannot check, rather than ignoring them', () => {
    expect(() => compileJsonSchema({ type: 'string', format: 'email' })).toThrow(/format/);
    expect(() => compileJsonSchema({ oneOf: [{ type: 'string' }, { type: 'number' }] })).toThrow(/oneOf/);
    expect(() =>
      compileJsonSchema({
        type: 'object',
        properties: { a: { type: 'string' } },
        additionalProperties: { type: 'string' },
      }),
    ).toThrow(/additionalProperties/);
    expect(() => compileJsonSchema({ type: 'object', maxProperties: 2 })).toThrow(/maxProperties/);
    expect(() => compileJsonSchema({ anyOf: [{ type: 'string' }, { type: 'object' }] })).toThrow(/anyOf/);
    expect(() => compileJsonSchema({ anyOf: [{ type: 'number' }, { type: 'integer' }] })).toThrow(/anyOf/);
  });
});
