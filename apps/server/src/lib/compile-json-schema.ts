/**
 * Compiles a JSON Schema (the subset `z.toJSONSchema` emits for plain checking schemas) into one
 * JavaScript predicate: straight-line type, length, pattern, bound and key checks with no allocation,
 * so that a valid ingestion batch costs a few microseconds instead of zod's ~300 µs per request.
 *
 * It answers only yes or no; the caller asks zod for the issues of a no. It measures as zod does: string
 * lengths in Unicode code points (as JSON Schema says too), patterns as RegExps with the `u` flag (JSON Schema
 * patterns are Unicode-aware; the contract's text checks, `@polyflow/contracts/text`, need it for `\p{…}`).
 * Anything outside the subset (a keyword it does not know, a union without a discriminating `const`)
 * throws at compile time: a contract change it cannot follow fails at start-up and in the tests, never
 * by accepting something zod would refuse. test/events/batch-validator.test.ts holds both to the same
 * answers.
 */
export type JsonSchema = { readonly [keyword: string]: unknown };

const KNOWN = new Set([
  '$schema',
  'type',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'minItems',
  'maxItems',
  'minLength',
  'maxLength',
  'pattern',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'const',
  'enum',
  'oneOf',
  'anyOf',
  'propertyNames',
  'maxProperties',
]);

/** Length in code points: a surrogate pair is one character, a lone surrogate counts as one too. */
function codePointLength(text: string): number {
  let length = text.length;
  for (let i = 0; i < text.length - 1; i++) {
    const isPair = (text.charCodeAt(i) & 0xfc00) === 0xd800 && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
    if (isPair) {
      length--;
      i++;
    }
  }
  return length;
}

/**
 * Patterns (by their source) with an equivalent test that is quicker than the regular expression; the
 * caller vouches for the equivalence (and tests it).
 */
export type FastPatterns = ReadonlyMap<string, (text: string) => boolean>;

class Compiler {
  /** Values the generated code reads as `c[i]`: regular expressions, key sets, enum sets, constants. */
  readonly constants: unknown[] = [codePointLength];
  private nextVariable = 0;
  readonly lines: string[] = [];

  constructor(private readonly fastPatterns: FastPatterns) {}

  constant(value: unknown): string {
    this.constants.push(value);
    return `c[${this.constants.length - 1}]`;
  }

  variable(): string {
    return `v${this.nextVariable++}`;
  }

  /** Emits checks that `return false` unless the value in `target` satisfies `schema`. */
  emit(schema: JsonSchema, target: string): void {
    for (const keyword of Object.keys(schema)) {
      if (!KNOWN.has(keyword)) throw new Error(`compileJsonSchema: unsupported keyword "${keyword}"`);
    }
    if (schema.oneOf !== undefined) {
      this.emitDiscriminatedUnion(schema.oneOf as JsonSchema[], target);
      return;
    }
    if (schema.anyOf !== undefined) {
      this.emitAnyOf(schema.anyOf as JsonSchema[], target);
      return;
    }
    if (schema.const !== undefined) this.fail(`${target} !== ${this.constant(schema.const)}`);
    if (schema.enum !== undefined)
      this.fail(`!${this.constant(new Set(schema.enum as unknown[]))}.has(${target})`);
    switch (schema.type) {
      case 'string':
        this.emitString(schema, target);
        break;
      case 'integer':
      case 'number':
        this.emitNumber(schema, target);
        break;
      case 'boolean':
        this.fail(`typeof ${target} !== 'boolean'`);
        break;
      case 'object':
        this.emitObject(schema, target);
        break;
      case 'array':
        this.emitArray(schema, target);
        break;
      default:
        throw new Error(`compileJsonSchema: unsupported type ${JSON.stringify(schema.type)}`);
    }
  }

  private fail(condition: string): void {
    this.lines.push(`if (${condition}) return false;`);
  }

  private emitString(schema: JsonSchema, target: string): void {
    this.fail(`typeof ${target} !== 'string'`);
    // Counting code points is needed only where UTF-16 units leave the answer open (at most two per point).
    if (schema.minLength !== undefined) {
      const min = Number(schema.minLength);
      this.fail(`${target}.length < ${2 * min} && c[0](${target}) < ${min}`);
    }
    if (schema.maxLength !== undefined) {
      const max = Number(schema.maxLength);
      this.fail(`${target}.length > ${max} && c[0](${target}) > ${max}`);
    }
    if (schema.pattern !== undefined) {
      const fast = this.fastPatterns.get(String(schema.pattern));
      if (fast) this.fail(`!${this.constant(fast)}(${target})`);
      else this.fail(`!${this.constant(new RegExp(String(schema.pattern), 'u'))}.test(${target})`);
    }
  }

  private emitNumber(schema: JsonSchema, target: string): void {
    const isType = schema.type === 'integer' ? 'Number.isInteger' : 'Number.isFinite';
    this.fail(`typeof ${target} !== 'number' || !${isType}(${target})`);
    const bound = (keyword: string, operator: string) => {
      if (schema[keyword] !== undefined) this.fail(`${target} ${operator} ${Number(schema[keyword])}`);
    };
    bound('minimum', '<');
    bound('maximum', '>');
    bound('exclusiveMinimum', '<=');
    bound('exclusiveMaximum', '>=');
  }

  private emitObject(schema: JsonSchema, target: string): void {
    this.fail(`typeof ${target} !== 'object' || ${target} === null || Array.isArray(${target})`);
    const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
    for (const key of (schema.required ?? []) as string[]) {
      this.fail(`${target}[${JSON.stringify(key)}] === undefined`);
    }
    if (schema.additionalProperties === false) {
      const key = this.variable();
      const allowed = this.constant(new Set(Object.keys(properties)));
      this.lines.push(`for (const ${key} in ${target}) if (!${allowed}.has(${key})) return false;`);
    } else if (typeof schema.additionalProperties === 'object' && schema.additionalProperties !== null) {
      // A record (zod's z.record): no named properties, every key checked by propertyNames, every value alike.
      if (schema.properties !== undefined || schema.required !== undefined)
        throw new Error(
          'compileJsonSchema: additionalProperties with a schema is supported only for records',
        );
      this.emitRecord(schema, target);
    } else if (schema.additionalProperties !== undefined) {
      throw new Error('compileJsonSchema: additionalProperties is supported as false or a schema');
    } else if (schema.propertyNames !== undefined || schema.maxProperties !== undefined) {
      throw new Error('compileJsonSchema: propertyNames and maxProperties are supported only for records');
    }
    for (const [key, property] of Object.entries(properties)) {
      const value = this.variable();
      this.lines.push(`const ${value} = ${target}[${JSON.stringify(key)}];`, `if (${value} !== undefined) {`);
      this.emit(property, value);
      this.lines.push('}');
    }
  }

  /** Own enumerable keys (as JSON.parse makes them, `__proto__` included), their names and values checked. */
  private emitRecord(schema: JsonSchema, target: string): void {
    const keys = this.variable();
    this.lines.push(`const ${keys} = Object.keys(${target});`);
    if (schema.maxProperties !== undefined) this.fail(`${keys}.length > ${Number(schema.maxProperties)}`);
    const index = this.variable();
    const key = this.variable();
    const value = this.variable();
    this.lines.push(`for (let ${index} = 0; ${index} < ${keys}.length; ${index}++) {`);
    this.lines.push(`const ${key} = ${keys}[${index}];`, `const ${value} = ${target}[${key}];`);
    if (schema.propertyNames !== undefined) this.emit(schema.propertyNames as JsonSchema, key);
    this.emit(schema.additionalProperties as JsonSchema, value);
    this.lines.push('}');
  }

  /** A union of primitive types told apart by `typeof` (string, number, integer, boolean): no objects. */
  private emitAnyOf(branches: JsonSchema[], target: string): void {
    const typeOf = { string: 'string', number: 'number', integer: 'number', boolean: 'boolean' } as const;
    const seen = new Set<string>();
    this.lines.push(`switch (typeof ${target}) {`);
    for (const branch of branches) {
      const type = typeOf[branch.type as keyof typeof typeOf];
      if (type === undefined || seen.has(type) || branch.anyOf !== undefined || branch.oneOf !== undefined)
        throw new Error('compileJsonSchema: anyOf is supported only as a union of distinct primitive types');
      seen.add(type);
      this.lines.push(`case '${type}': {`);
      this.emit(branch, target);
      this.lines.push('break; }');
    }
    this.lines.push('default: return false;', '}');
  }

  private emitArray(schema: JsonSchema, target: string): void {
    this.fail(`!Array.isArray(${target})`);
    if (schema.minItems !== undefined) this.fail(`${target}.length < ${Number(schema.minItems)}`);
    if (schema.maxItems !== undefined) this.fail(`${target}.length > ${Number(schema.maxItems)}`);
    if (schema.items === undefined) return;
    const index = this.variable();
    const item = this.variable();
    this.lines.push(`for (let ${index} = 0; ${index} < ${target}.length; ${index}++) {`);
    this.lines.push(`const ${item} = ${target}[${index}];`);
    this.emit(schema.items as JsonSchema, item);
    this.lines.push('}');
  }

  /** A union of object schemas told apart by one property's `const` (zod's discriminated union). */
  private emitDiscriminatedUnion(branches: JsonSchema[], target: string): void {
    const discriminator = discriminatorOf(branches);
    this.fail(`typeof ${target} !== 'object' || ${target} === null || Array.isArray(${target})`);
    this.lines.push(`switch (${target}[${JSON.stringify(discriminator)}]) {`);
    for (const branch of branches) {
      const value = (branch.properties as Record<string, JsonSchema>)[discriminator]?.const;
      this.lines.push(`case ${this.constant(value)}: {`);
      this.emit(branch, target);
      this.lines.push('break; }');
    }
    this.lines.push('default: return false;', '}');
  }
}

/** The property every branch requires with a distinct string `const`. */
function discriminatorOf(branches: JsonSchema[]): string {
  const first = branches[0]?.properties as Record<string, JsonSchema> | undefined;
  for (const candidate of Object.keys(first ?? {})) {
    const values = branches.map((branch) => {
      const property = (branch.properties as Record<string, JsonSchema> | undefined)?.[candidate];
      const isRequired = ((branch.required ?? []) as string[]).includes(candidate);
      return branch.type === 'object' && isRequired && typeof property?.const === 'string'
        ? property.const
        : undefined;
    });
    if (values.every((value) => value !== undefined) && new Set(values).size === values.length)
      return candidate;
  }
  throw new Error(
    'compileJsonSchema: oneOf is supported only as a union of objects with a discriminating const',
  );
}

/** The schema as a predicate. */
export function compileJsonSchema(
  schema: JsonSchema,
  fastPatterns: FastPatterns = new Map(),
): (value: unknown) => boolean {
  const compiler = new Compiler(fastPatterns);
  compiler.emit(schema, 'value');
  const body = `return function isValid(value) {\n${compiler.lines.join('\n')}\nreturn true;\n};`;
  // Generated from the schema's structure only: every schema string reaches the code as a JSON literal
  // (property names) or through `c` (patterns, constants), never as code.
  return new Function('c', body)(compiler.constants) as (value: unknown) => boolean;
}
