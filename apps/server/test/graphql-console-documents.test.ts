import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { buildSchema, Kind, type OperationDefinitionNode, parse, specifiedRules, validate } from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import { documentRefusal } from '../src/graphql/document-limits.ts';
import { loadGraphql } from '../src/graphql/library.ts';
import { rootFieldLimit } from '../src/graphql/root-field-limit.ts';
import {
  countFieldSelections,
  fieldSelectionLimit,
  MAX_FIELD_SELECTIONS,
} from '../src/graphql/selection-limit.ts';
import { everyDashboardQuery } from './hostile/every-query.ts';

const root = path.resolve(import.meta.dirname, '../../..');
// The schema the server serves (graphql-schema.test.ts keeps the file equal to it).
const schema = buildSchema(readFileSync(path.join(root, 'docs/graphql-schema.graphql'), 'utf8'));

/** The text of every `graphql(\`...\`)` document of the console's sources, as its codegen reads them. */
function consoleDocuments(): { file: string; source: string }[] {
  const documents: { file: string; source: string }[] = [];
  const visit = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'gql') visit(file);
      } else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) {
        for (const match of readFileSync(file, 'utf8').matchAll(/\bgraphql\(\s*`([^`]*)`/g)) {
          documents.push({ file: path.relative(root, file), source: match[1] as string });
        }
      }
    }
  };
  visit(path.join(root, 'apps/console/src'));
  return documents;
}

/** The validation errors the server would answer for a document, and the fields its operation selects. */
function check(source: string) {
  const refusal = documentRefusal(source);
  if (refusal) return { errors: [refusal], fields: Number.NaN };
  const document = parse(source);
  const errors = validate(schema, document, [...specifiedRules, rootFieldLimit, fieldSelectionLimit]);
  const fragments = new Map(
    document.definitions.flatMap((definition) =>
      definition.kind === Kind.FRAGMENT_DEFINITION ? [[definition.name.value, definition] as const] : [],
    ),
  );
  const operations = document.definitions.filter(
    (definition): definition is OperationDefinitionNode => definition.kind === Kind.OPERATION_DEFINITION,
  );
  const fields = Math.max(
    ...operations.map((operation) =>
      countFieldSelections(operation.selectionSet, (name) => fragments.get(name)),
    ),
  );
  return { errors: errors.map((error) => error.message), fields };
}

/**
 * The GraphQL limits (src/graphql: root fields, fields selected, nesting) against what real clients send:
 * every console document and every dashboard query asking all its fields (the hostile suite's) pass, and
 * the largest console document keeps the headroom MAX_FIELD_SELECTIONS' comment claims.
 */
describe('the GraphQL limits and the real operations', () => {
  beforeAll(async () => {
    await loadGraphql();
  });

  it('pass every document of the console, the largest at most half the fields limit', () => {
    const documents = consoleDocuments();
    expect(documents.length).toBeGreaterThan(30);
    const checked = documents.map(({ file, source }) => ({ file, ...check(source) }));
    for (const { file, errors } of checked) expect(errors, file).toEqual([]);
    const largest = Math.max(...checked.map(({ fields }) => fields));
    expect(largest).toBeGreaterThan(0);
    expect(largest).toBeLessThanOrEqual(MAX_FIELD_SELECTIONS / 2);
  });

  it('pass every dashboard query asking for all its fields', () => {
    const queries = everyDashboardQuery('p', { from: '2024-01-01T00:00:00Z' });
    expect(queries.length).toBeGreaterThan(30);
    for (const { name, query } of queries) expect(check(query).errors, name).toEqual([]);
  });
});
