import type { GraphQLScalarType } from 'graphql';
import type { IResolvers } from 'mercurius';
import type { GraphqlLibrary } from './library.ts';
import type { GraphqlModule } from './module.ts';

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The published SDK declares `$id: UUID!`: the scalar must exist under exactly that name. */
function uuidScalar({ GraphQLError, GraphQLScalarType, Kind }: GraphqlLibrary): GraphQLScalarType {
  const parseUuid = (value: unknown): string => {
    if (typeof value !== 'string' || !UUID_PATTERN.test(value)) {
      throw new GraphQLError('UUID must be a string such as 123e4567-e89b-12d3-a456-426614174000.', {
        extensions: { code: 'INVALID_REQUEST_BODY' },
      });
    }
    return value.toLowerCase();
  };
  return new GraphQLScalarType({
    name: 'UUID',
    serialize: (value) => String(value),
    parseValue: parseUuid,
    parseLiteral: (ast) => parseUuid(ast.kind === Kind.STRING ? ast.value : undefined),
  });
}

const BASE_TYPE_DEFS = `
  scalar UUID

  type Query {
    "Always true: lets a client check that the endpoint answers."
    health: Boolean!
  }
`;

/**
 * One schema from every module's SDL and resolvers (analytics adds its queries the same way), made with
 * graphql-js once the first GraphQL request has loaded it.
 */
export function composeSchema(
  modules: readonly GraphqlModule[],
  graphql: GraphqlLibrary,
): { schema: string; resolvers: IResolvers } {
  const base: IResolvers = { UUID: uuidScalar(graphql), Query: { health: () => true } };
  const resolvers: Record<string, Record<string, unknown> | GraphQLScalarType> = {};
  const parts = modules.map((module) =>
    typeof module.resolvers === 'function' ? module.resolvers(graphql) : module.resolvers,
  );
  for (const part of [base, ...parts]) {
    for (const [typeName, fields] of Object.entries(part)) {
      const existing = resolvers[typeName];
      if (fields instanceof graphql.GraphQLScalarType || existing instanceof graphql.GraphQLScalarType) {
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
