// Writes the documentation site's generated pages before `vitepress build` (npm run build:docs), from the
// files the server's tests keep in sync with what it serves:
// - reference/rest-api.md from docs/openapi.json (GET /api/v1/openapi.json, `npm run docs:openapi`);
// - reference/graphql.md from docs/graphql-schema.graphql (`npm run docs:graphql`);
// - reference/event-fields.md, the wire format's field tables, from the ingestion route's body schema;
// - reference/decisions.md, the list of decision records, from docs/decisions/*.md (their headings, Status and
//   Date lines, read as scripts/docs-records.mjs checks them);
// - reference/files/*.md, the repository's files the pages link to (.env.example, deploy/…), each shown whole
//   in a code block, so that a link to one from the site opens it (config.mts maps the links).
// The generated pages are not committed (.gitignore): their sources are.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSchema, isEnumType, isInputObjectType, isObjectType, isScalarType, isUnionType } from 'graphql';
import { recordHeader } from '../../scripts/docs-records.mjs';

const docs = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(docs, 'reference');

/** The repository's files the documentation links to, as [path, highlighting language]. */
export const REPOSITORY_FILES = [
  ['.env.example', 'sh'],
  ['deploy/compose.scale.yml', 'yaml'],
  ['deploy/nginx.conf', 'nginx'],
  ['deploy/scale.env.example', 'sh'],
];

/** A repository file's page name under reference/files/: `deploy/nginx.conf` → `deploy-nginx-conf`. */
export const repositoryFilePage = (path) =>
  path
    .replace(/^\./, '')
    .replace(/[^a-z0-9]+/gi, '-')
    .toLowerCase();

/** A page holding one repository file whole. */
export function repositoryFileMarkdown(path, language, text) {
  const fence = '`'.repeat(Math.max(3, ...[...text.matchAll(/`+/g)].map((m) => m[0].length + 1)));
  return `# ${path}\n\nThe file \`${path}\` of the Polyflow repository, as this version has it.\n\n${fence}${language}\n${text.replace(/\n$/, '')}\n${fence}\n`;
}

/** Markdown table cell: no line breaks or pipes. */
const cell = (text) =>
  String(text ?? '')
    .replace(/\|/g, '\\|')
    .replace(/\s*\n\s*/g, ' ');

/** A JSON Schema's type in a few words: `string ≤ 256`, `integer ≥ 0`, `"a" \| "b"`, `array of object`. */
export function typeOf(schema) {
  if (!schema || Object.keys(schema).length === 0) return 'any';
  if (schema.const !== undefined) return `\`${JSON.stringify(schema.const)}\``;
  if (schema.enum) return schema.enum.map((value) => `\`${JSON.stringify(value)}\``).join(', ');
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return alternatives.map(typeOf).join(' or ');
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  const limits = [];
  if (schema.minLength !== undefined) limits.push(`≥ ${schema.minLength} chars`);
  if (schema.maxLength !== undefined) limits.push(`≤ ${schema.maxLength} chars`);
  if (schema.minimum !== undefined) limits.push(`≥ ${schema.minimum}`);
  if (schema.maximum !== undefined) limits.push(`≤ ${schema.maximum}`);
  if (schema.minItems !== undefined) limits.push(`≥ ${schema.minItems} items`);
  if (schema.maxItems !== undefined) limits.push(`≤ ${schema.maxItems} items`);
  if (schema.format) limits.push(schema.format);
  // Control characters are refused in every label; other patterns say what they require.
  if (schema.pattern && !schema.pattern.includes('\\p{Cc}')) limits.push(`\`${schema.pattern}\``);
  const base = types
    .map((type) => (type === 'array' ? `array of ${typeOf(schema.items)}` : (type ?? 'object')))
    .join(' or ');
  return limits.length ? `${base} (${limits.join(', ')})` : base;
}

/** Rows `field | type | required` of an object schema, nested objects as `a.b`. */
export function fieldRows(schema, prefix = '') {
  const rows = [];
  const required = new Set(schema.required ?? []);
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const path = `${prefix}${name}`;
    const nested = property.type === 'object' && property.properties;
    rows.push(
      `| \`${path}\` | ${cell(nested ? 'object' : typeOf(property))} | ${required.has(name) ? 'yes' : ''} |`,
    );
    if (nested) rows.push(...fieldRows(property, `${path}.`));
  }
  return rows;
}

function fieldTable(schema) {
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants?.every((variant) => variant.properties)) {
    return variants.map((variant, index) => `One of (${index + 1}):\n\n${fieldTable(variant)}`).join('\n\n');
  }
  if (!schema.properties) return `\`${typeOf(schema)}\``;
  const rows = fieldRows(schema);
  const extra = schema.additionalProperties === false ? '\n\nOther fields are refused.' : '';
  return `| field | type | required |\n| --- | --- | --- |\n${rows.join('\n')}${extra}`;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete', 'options', 'head'];
const AUTH = {
  session: 'a console session (`Authorization: Bearer <token from POST /api/v1/login>`)',
  readToken: "a project's read token (`Authorization: Bearer pf_read_…`)",
  metricsToken: 'the `METRICS_TOKEN` (`Authorization: Bearer …`)',
};

/** The REST reference page from an OpenAPI 3.1 document. */
export function restReference(openapi) {
  const byTag = new Map();
  for (const [path, item] of Object.entries(openapi.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const tag = operation.tags?.[0] ?? 'Other';
      if (!byTag.has(tag)) byTag.set(tag, []);
      byTag.get(tag).push({ path, method, operation });
    }
  }
  const lines = [
    '# REST API reference',
    '',
    `${openapi.info.description}`,
    '',
    'Generated from the routes and their zod schemas: the same document is served by every Polyflow server at',
    '<a href="/api/v1/openapi.json" target="_self"><code>/api/v1/openapi.json</code></a> (OpenAPI 3.1), for client',
    'generators and API tools. Paths are relative to your server, e.g. `https://polyflow.example.com/api/v1/login`. Every refusal',
    'is a JSON body `{errorCode, message}` (with `details` per field for invalid input): see',
    '[Troubleshooting](../troubleshooting.md).',
    '',
  ];
  const order = ['Accounts', 'Projects', 'Data access', 'Ingestion', 'Live', 'Operations', 'Reference'];
  const rank = (tag) => (order.includes(tag) ? order.indexOf(tag) : order.length);
  for (const [tag, operations] of [...byTag].sort(([a], [b]) => rank(a) - rank(b))) {
    lines.push(`## ${tag}`, '');
    for (const { path, method, operation } of operations) {
      lines.push(`### ${method.toUpperCase()} \`${path}\``, '');
      lines.push(`**${operation.summary ?? '(no summary)'}**`, '');
      if (operation.description) lines.push(operation.description, '');
      const security = operation.security ?? [];
      const who = security.flatMap((requirement) =>
        Object.keys(requirement).map((name) => AUTH[name] ?? name),
      );
      lines.push(`Authentication: ${who.length ? who.join(', or ') : 'none'}.`, '');
      const parameters = operation.parameters ?? [];
      if (parameters.length) {
        lines.push('| parameter | in | type | required |', '| --- | --- | --- | --- |');
        for (const parameter of parameters) {
          lines.push(
            `| \`${parameter.name}\` | ${parameter.in} | ${cell(typeOf(parameter.schema))} | ${parameter.required ? 'yes' : ''} |`,
          );
        }
        lines.push('');
      }
      const body = operation.requestBody;
      if (body) {
        const [type, media] = Object.entries(body.content)[0];
        const types = Object.keys(body.content)
          .map((name) => `\`${name}\``)
          .join(' or ');
        lines.push(`Request body (${types}):`, '', fieldTable(media.schema), '');
        if (type === 'text/plain') lines.push('The text is JSON of this shape.', '');
      }
      lines.push('| status | answer |', '| --- | --- |');
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        const content = response.content ? Object.keys(response.content).map((name) => `\`${name}\``) : [];
        lines.push(
          `| ${status} | ${cell(response.description)}${content.length ? ` (${content.join(', ')})` : ''} |`,
        );
      }
      lines.push('');
      const success = Object.entries(operation.responses ?? {}).find(
        ([status, response]) => status.startsWith('2') && response.content?.['application/json']?.schema,
      );
      if (success) {
        lines.push(
          `<details><summary>${success[0]} body</summary>`,
          '',
          fieldTable(success[1].content['application/json'].schema),
          '',
          '</details>',
          '',
        );
      }
    }
  }
  return `${lines.join('\n')}\n`;
}

/** The one value a schema allows: `const`, or an `enum` of one (as zod's JSON Schema writes a literal). */
function constantOf(schema) {
  if (schema.const !== undefined) return schema.const;
  if (schema.enum?.length === 1) return schema.enum[0];
  throw new Error(`not a single value: ${JSON.stringify(schema)}`);
}

/** The wire format's field tables: the batch, then each event type, from POST /api/v1/events' body schema. */
export function eventFields(openapi) {
  const batch = openapi.paths['/api/v1/events'].post.requestBody.content['text/plain'].schema;
  const { events, ...envelope } = batch.properties;
  const lines = [
    '### The batch',
    '',
    fieldTable({
      ...batch,
      properties: envelope,
      required: batch.required.filter((name) => name !== 'events'),
    }),
    '',
    `Plus \`events\`: ${typeOf(events)}, each one of the types below.`,
    '',
  ];
  for (const variant of events.items.oneOf) {
    lines.push(`### \`${constantOf(variant.properties.type)}\``, '', fieldTable(variant), '');
  }
  return `${lines.join('\n')}\n`;
}

const described = (description) => (description ? `${description.replace(/\n/g, ' ')}` : '');

/** The GraphQL reference page from the committed SDL. */
export function graphqlReference(sdl) {
  const schema = buildSchema(sdl);
  const lines = [
    '# GraphQL reference',
    '',
    'The dashboards, the incidents and the 1.0.25 SDK protocol are served by `POST /api/graphql`. Console',
    'queries take `Authorization: Bearer <session token>` (or a read token for the reading queries); errors',
    'carry `extensions.code` (`BAD_USER_INPUT` for invalid arguments, `NOT_FOUND` for a project that is not',
    'yours) and the REST `errorCode` in `extensions.errorCode`. Generated from',
    '`docs/graphql-schema.graphql`, which a test keeps equal to what the server serves. Signed in, the',
    "console's **GraphQL API** screen runs queries against it. An operation asks at most 20 root fields",
    '(aliases and fragments counted), selects at most 200 fields in all (each alias, and a fragment wherever',
    'it is spread) and is at most 12 levels deep; more is `GRAPHQL_VALIDATION_FAILED`.',
    '',
  ];
  const field = (name, fieldDef) => {
    const args = fieldDef.args ?? [];
    const signature = args.length ? `(${args.map((arg) => `${arg.name}: ${arg.type}`).join(', ')})` : '';
    return `| \`${name}${cell(signature)}\` | \`${cell(String(fieldDef.type))}\` | ${cell(described(fieldDef.description))} |`;
  };
  const fieldsTable = (type) => [
    '| field | type | description |',
    '| --- | --- | --- |',
    ...Object.entries(type.getFields()).map(([name, fieldDef]) => field(name, fieldDef)),
    '',
  ];
  for (const [title, type] of [
    ['Queries', schema.getQueryType()],
    ['Mutations', schema.getMutationType()],
  ]) {
    if (!type) continue;
    lines.push(`## ${title}`, '', ...fieldsTable(type));
  }
  const roots = new Set([schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()]);
  const named = Object.values(schema.getTypeMap())
    .filter((type) => !type.name.startsWith('__') && !roots.has(type))
    .sort((a, b) => a.name.localeCompare(b.name));
  lines.push('## Types', '');
  for (const type of named) {
    if (isScalarType(type) && ['String', 'Int', 'Float', 'Boolean', 'ID'].includes(type.name)) continue;
    lines.push(`### ${type.name}`, '');
    if (type.description) lines.push(described(type.description), '');
    if (isObjectType(type) || isInputObjectType(type)) {
      lines.push(`${isInputObjectType(type) ? 'Input object' : 'Object'}:`, '', ...fieldsTable(type));
    } else if (isEnumType(type)) {
      lines.push(
        'Enum:',
        '',
        '| value | description |',
        '| --- | --- |',
        ...type.getValues().map((value) => `| \`${value.name}\` | ${cell(described(value.description))} |`),
        '',
      );
    } else if (isUnionType(type)) {
      lines.push(
        `Union of ${type
          .getTypes()
          .map((member) => `\`${member.name}\``)
          .join(', ')}.`,
        '',
      );
    } else if (isScalarType(type)) {
      lines.push('Scalar.', '');
    }
  }
  return `${lines.join('\n')}\n`;
}

/**
 * The decision records' index: each record's number, title, status and date, newest first, linked. `records`
 * are [file name, text] pairs; a record's title is its first heading ("# 165: Gas paid and …").
 */
export function decisionsIndex(records) {
  const rows = records
    .filter(([file]) => /^\d{3}-.*\.md$/.test(file))
    .sort(([a], [b]) => b.localeCompare(a))
    .map(([file, text]) => {
      const header = recordHeader(text);
      const number = header.number ?? file.slice(0, 3);
      const { title, status, supersededBy, date } = header;
      const statusCell = supersededBy
        ? `superseded by [${supersededBy}](#adr-${supersededBy})`
        : cell(status);
      // A date is not cut at its hyphens (custom.css).
      return `| <span id="adr-${number}">${number}</span> | [${cell(title ?? file)}](/decisions/${file.replace(/\.md$/, '')}) | ${statusCell} | <span class="nowrap">${cell(date)}</span> |`;
    });
  return `${[
    '# Decision records',
    '',
    'Why the code is the way it is, one decision a record, newest first. A record is never edited to change its',
    'decision: a later one supersedes it, and its status says which. [Architecture](/ARCHITECTURE) is the map.',
    '',
    '| № | decision | status | date |',
    '| --- | --- | --- | --- |',
    ...rows,
  ].join('\n')}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const openapi = JSON.parse(readFileSync(join(docs, 'openapi.json'), 'utf8'));
  const sdl = readFileSync(join(docs, 'graphql-schema.graphql'), 'utf8');
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'rest-api.md'), restReference(openapi));
  writeFileSync(join(out, 'event-fields.md'), eventFields(openapi));
  writeFileSync(join(out, 'graphql.md'), graphqlReference(sdl));
  const decisions = join(docs, 'decisions');
  const records = readdirSync(decisions).map((file) => [file, readFileSync(join(decisions, file), 'utf8')]);
  writeFileSync(join(out, 'decisions.md'), decisionsIndex(records));
  mkdirSync(join(out, 'files'), { recursive: true });
  for (const [path, language] of REPOSITORY_FILES) {
    const text = readFileSync(join(docs, '..', path), 'utf8');
    writeFileSync(
      join(out, 'files', `${repositoryFilePage(path)}.md`),
      repositoryFileMarkdown(path, language, text),
    );
  }
  console.log('wrote docs/reference/rest-api.md, event-fields.md, graphql.md, decisions.md and files/*.md');
}
