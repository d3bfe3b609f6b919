import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  buildSchema,
  type GraphQLField,
  type GraphQLOutputType,
  getNamedType,
  isEnumType,
  isNonNullType,
  isObjectType,
  isScalarType,
} from 'graphql';

/**
 * Every dashboard query of the GraphQL schema (docs/graphql-schema.graphql, kept equal to the server's
 * by graphql-schema.test.ts), each asking for every field it can answer: a query added later is
 * asked too, without this list being edited.
 */
const SCHEMA = buildSchema(
  readFileSync(path.resolve(import.meta.dirname, '../../../../docs/graphql-schema.graphql'), 'utf8'),
);

function selection(type: GraphQLOutputType, depth: number): string {
  const named = getNamedType(type);
  if (isScalarType(named) || isEnumType(named)) return '';
  if (!isObjectType(named) || depth > 4) return '{ __typename }';
  const fields = Object.values(named.getFields())
    .filter((field) => field.args.every((arg) => !isNonNullType(arg.type) || arg.defaultValue !== undefined))
    .map((field) => `${field.name} ${selection(field.type, depth + 1)}`);
  return `{ ${fields.join(' ')} }`;
}

export type Range = { from?: string; to?: string };
export type AskedQuery = { name: string; query: string; variables: Record<string, unknown> };

/** Values for a query's arguments: the project, the range, the first value of a required enum. */
function argumentsOf(
  field: GraphQLField<unknown, unknown>,
  projectId: string,
  range: Range,
  previous: boolean,
  ids: { transactionId?: string; incidentId?: string },
) {
  const declared: string[] = [];
  const passed: string[] = [];
  const variables: Record<string, unknown> = {};
  for (const arg of field.args) {
    const typeText = String(arg.type);
    const put = (value: unknown) => {
      declared.push(`$${arg.name}: ${typeText}`);
      passed.push(`${arg.name}: $${arg.name}`);
      variables[arg.name] = value;
    };
    if (arg.name === 'projectId') put(projectId);
    else if (arg.name === 'from' && range.from !== undefined) put(range.from);
    else if (arg.name === 'to' && range.to !== undefined) put(range.to);
    else if (arg.name === 'previous') put(previous);
    else if (arg.name === 'id' && field.name === 'transaction') put(ids.transactionId ?? 'none');
    else if (arg.name === 'id') put(ids.incidentId ?? 'none');
    else if (isNonNullType(arg.type)) {
      const named = getNamedType(arg.type);
      if (isEnumType(named)) put(named.getValues()[0]?.value);
      else put('none');
    }
  }
  return { declared, passed, variables };
}

/** Each Query field (but `health`) as a query over `range`, with and without the previous period. */
export function everyDashboardQuery(
  projectId: string,
  range: Range,
  ids: { transactionId?: string; incidentId?: string } = {},
): AskedQuery[] {
  const fields = Object.values(SCHEMA.getQueryType()?.getFields() ?? {}).filter(
    (field) => field.name !== 'health',
  );
  return fields.flatMap((field) =>
    [false, true]
      .filter((previous) => !previous || field.args.some((arg) => arg.name === 'previous'))
      .map((previous) => {
        const { declared, passed, variables } = argumentsOf(field, projectId, range, previous, ids);
        const head = declared.length ? `(${declared.join(', ')})` : '';
        const call = passed.length ? `(${passed.join(', ')})` : '';
        return {
          name: `${field.name}${previous ? ' previous' : ''}`,
          query: `query Asked${head} { ${field.name}${call} ${selection(field.type, 0)} }`,
          variables,
        };
      }),
  );
}
