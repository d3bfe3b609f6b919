/**
 * What an attacker (or a broken client) sends in place of a value: wrong types, a 1 MB string, deep
 * nesting, text the stores cannot hold, prototype keys, numbers past every bound, impossible dates.
 * Strings are at least eight characters, so that a length rule cannot be what refuses them.
 */
export type HostileValue = { label: string; value: unknown };
/** What a position holds: the values below are chosen so that each is wrong for it. */
export type Kind =
  | 'text'
  | 'cleaned'
  | 'id'
  | 'integer'
  | 'float'
  | 'boolean'
  | 'date'
  | 'enum'
  | 'object'
  | 'property';

/** Stands for 5,000 nested arrays, which JSON.stringify cannot write: `serialize` puts them in. */
const DEEP_MARKER = 'polyflow-hostile-deep-nesting';
const DEEP_JSON = `${'['.repeat(5000)}"leaf"${']'.repeat(5000)}`;
const v = (label: string, value: unknown): HostileValue => ({ label, value });

const WRONG_SHAPES = [
  v('object', { nested: 'polyflow-value' }),
  v('array', ['polyflow-value']),
  v('boolean', true),
];
const HUGE = [v('1 MB string', 'a'.repeat(1024 * 1024)), v('5,000-deep nesting', DEEP_MARKER)];
const PROTOTYPE = [
  v('prototype key', JSON.parse('{"__proto__":{"isAdmin":true}}')),
  v('constructor.prototype', JSON.parse('{"constructor":{"prototype":{"isAdmin":true}}}')),
];
export const UNSTORABLE = [
  v('NUL', 'polyflow\u0000value'),
  v('lone high surrogate', 'polyflow\ud800value'),
  v('lone low surrogate', '\udc00polyflowvalue'),
  v('escape (C0)', 'polyflow\u001b[31mvalue'),
  v('NEL (C1)', 'polyflow\u0085value'),
];
const NUMBERS = [v('number', 12), v('huge number', 1.7976931348623157e308), v('2^64', 2 ** 64)];

export const HOSTILE_VALUES: Record<Kind, HostileValue[]> = {
  text: [...WRONG_SHAPES, ...NUMBERS, ...HUGE, ...PROTOTYPE, ...UNSTORABLE],
  // Text a page or a wallet wrote (an error's message, a wallet's name): ingestion stores its unstorable
  // characters as U+FFFD rather than refuse the batch (ADR 169); everything else is refused as for text.
  cleaned: [...WRONG_SHAPES, ...NUMBERS, ...HUGE, ...PROTOTYPE],
  id: [
    ...WRONG_SHAPES,
    ...NUMBERS,
    ...HUGE,
    ...PROTOTYPE,
    ...UNSTORABLE,
    v('SQL', "x' OR '1'='1'; DROP TABLE users; --"),
  ],
  integer: [
    ...WRONG_SHAPES,
    ...HUGE,
    ...PROTOTYPE,
    v('string', 'polyflow-value'),
    v('huge number', 1.7976931348623157e308),
    v('2^64', 2 ** 64),
    v('fraction', 1.5),
    v('negative 2^70', -(2 ** 70)),
  ],
  float: [...WRONG_SHAPES, ...HUGE, ...PROTOTYPE, v('string', 'polyflow-value'), v('NUL', 'a\u0000')],
  boolean: [
    ...WRONG_SHAPES.filter(({ label }) => label !== 'boolean'),
    ...HUGE,
    ...PROTOTYPE,
    v('string "true"', 'true'),
    v('number 1', 1),
  ],
  date: [
    ...WRONG_SHAPES,
    ...HUGE,
    ...UNSTORABLE,
    v('invalid date', '2024-13-45T25:61:00Z'),
    v('date words', 'yesterday at noon'),
    v('year 275760+', '+999999-01-01T00:00:00Z'),
    v('number', 12),
  ],
  enum: [...WRONG_SHAPES, ...HUGE, ...UNSTORABLE, v('unknown value', 'polyflow-value'), v('number', 12)],
  /** A custom event's property or an identify's trait: a string, a finite number or a boolean is right. */
  property: [
    ...WRONG_SHAPES.filter(({ label }) => label !== 'boolean'),
    ...HUGE,
    ...PROTOTYPE,
    ...UNSTORABLE,
  ],
  object: [
    ...HUGE.slice(0, 1),
    v('string', 'polyflow-value'),
    v('number', 12),
    v('array', [1, 2]),
    ...PROTOTYPE,
  ],
};

/** Bodies that are not the JSON object a route wants, sent as raw text with a JSON content type. */
export const HOSTILE_BODIES: { label: string; payload: string }[] = [
  { label: 'malformed JSON', payload: '{"name": "polyflow",' },
  { label: 'JSON array', payload: '[1,2,3]' },
  { label: 'JSON string', payload: '"polyflow"' },
  { label: 'JSON number 1e999', payload: '1e999' },
  { label: 'JSON null', payload: 'null' },
  { label: 'top-level __proto__', payload: '{"__proto__":{"isAdmin":true}}' },
  { label: 'top-level constructor.prototype', payload: '{"constructor":{"prototype":{"isAdmin":true}}}' },
  { label: '5,000-deep nesting', payload: `${'['.repeat(5000)}${']'.repeat(5000)}` },
  {
    label: 'invalid UTF-8',
    payload: Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]).toString('latin1'),
  },
];

/** Content types a JSON route must refuse (415), with a body that would otherwise parse. */
export const HOSTILE_CONTENT_TYPES = [
  'text/plain',
  'application/xml',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/json; charset=utf-16',
];

/** Path parameters: over-long, bad percent-encoding, NUL, encoded lone surrogate, traversal, prototype names. */
export const HOSTILE_IDS = [
  'a'.repeat(5_000),
  '%E0%A4%A',
  '%00',
  '%ED%A0%80',
  '..%2F..%2Fetc%2Fpasswd',
  '__proto__',
  'constructor',
  "1'%20OR%20'1'%3D'1",
  '00000000-0000-0000-0000-000000000000',
];

/** Every path to a value in `value` (objects and arrays), the root excluded. */
export function leafPaths(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (value === null || typeof value !== 'object') return [];
  const keys = Array.isArray(value) ? value.map((_, index) => index) : Object.keys(value);
  return keys.flatMap((key) => {
    const child = (value as Record<string | number, unknown>)[key];
    return [[...prefix, key], ...leafPaths(child, [...prefix, key])];
  });
}

/** A copy of `value` with the value at `path` replaced. */
export function replaceAt(value: unknown, path: (string | number)[], replacement: unknown): unknown {
  const copy = structuredClone(value) as Record<string | number, unknown>;
  let parent = copy;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  parent[path.at(-1) as string | number] = replacement;
  return copy;
}

/** JSON text of `value`, with the deep nesting written in where its marker is. */
export const serialize = (value: unknown) => JSON.stringify(value).replaceAll(`"${DEEP_MARKER}"`, DEEP_JSON);
