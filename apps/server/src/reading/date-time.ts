import type { GraphqlLibrary } from '../graphql/library.ts';
import type { GraphqlModule } from '../graphql/module.ts';

/** Strings in, strings out: the services parse (and explain) a malformed time, not the scalar. */
const dateTimeScalar = ({ GraphQLScalarType, Kind }: GraphqlLibrary) =>
  new GraphQLScalarType({
    name: 'DateTime',
    serialize: (value) => (value instanceof Date ? value.toISOString() : String(value)),
    parseValue: (value) => (typeof value === 'string' ? value : undefined),
    parseLiteral: (ast) => (ast.kind === Kind.STRING ? ast.value : undefined),
  });

/** The DateTime scalar every dashboard query takes and answers: its own part of the schema. */
export const dateTimeGraphql: GraphqlModule = {
  typeDefs: /* GraphQL */ `
  "ISO 8601 date-time, e.g. 2024-03-01T00:00:00Z (inputs: with a zone, or a date meaning UTC midnight)."
  scalar DateTime
`,
  resolvers: (graphql) => ({ DateTime: dateTimeScalar(graphql) }),
};
