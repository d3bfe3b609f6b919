import { GraphQLError, GraphQLScalarType, Kind } from 'graphql';
import type { IResolvers } from 'mercurius';
import type { GraphqlModule } from './module.ts';

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function parseUuid(value: unknown): string {
  if (typeof value !== 'string' || !UUID_PATTERN.test(value)) {
    throw new GraphQLError('UUID must be a string such as 123e4567-e89b-12d3-a456-426614174000.', {
      extensions: { code: 'INVALID_REQUEST_BODY' },
    });
  }
  return value.toLowerCase();
}

/** The published SDK declares `$id: UUID!`: the scalar must exist under exactly that name. */
const UuidScalar = new GraphQLScalarType({
  name: 'UUID',
  serialize: (value) => String(value),
  parseValue: parseUuid,
  parseLiteral: (ast) => parseUuid(ast.kind === Kind.STRING ? ast.value : undefined),
});

const BASE_TYPE_DEFS = `
  scalar UUID

  type Query {
    "Always true: lets a client check that the endpoint answers."
    health: Boolean!
  }
`;

const BASE_RESOLVERS: IResolvers = { UUID: UuidScalar, Query: { health: () => true } };

/** One schema from every module's SDL and resolvers (analytics adds its queries the same way). */
export function composeSchema(modules: readonly GraphqlModule[]): { schema: string; resolvers: IResolvers } {
  const resolvers: Record<string, Record<string, unknown> | GraphQLScalarType> = {};
  for (const part of [BASE_RESOLVERS, ...modules.map((module) => module.resolvers)]) {
    for (const [typeName, fields] of Object.entries(part)) {
      const existing = resolvers[typeName];
      if (fields instanceof GraphQLScalarType || existing instanceof GraphQLScalarType) {
        resolvers[typeName] = fields as GraphQLScalarType;
      } else {
        resolvers[typeName] = { ...existing, ...(fields as Record<string, unknown>) };
      }
    }
  }
  return {
    schema: [BASE_TYPE_DEFS, ...modules.map((module) => module.typeDefs)].join('\n'),
    resolvers: resolvers as IResolvers,
  };
}
