import type { GraphqlLibrary } from '../graphql/library.ts';
import type { GraphqlModule } from '../graphql/module.ts';

/**
 * EIP-155 chain ids are stored up to 2^53 − 1 (packages/contracts, `chainId`), past GraphQL's 32-bit `Int`:
 * a chain such as 11297108109 would fail the answer's serialisation. This scalar is a JSON number, any
 * positive safe integer, in both directions.
 */
function chainIdOf({ GraphQLError }: GraphqlLibrary, value: unknown): number {
  const id = typeof value === 'bigint' ? Number(value) : typeof value === 'string' ? Number(value) : value;
  if (typeof id === 'number' && Number.isSafeInteger(id) && id > 0) return id;
  throw new GraphQLError('A chain id is a positive integer up to 2^53 - 1.', {
    extensions: { code: 'BAD_USER_INPUT', errorCode: 'INVALID_REQUEST' },
  });
}

/**
 * Inputs: any integer passes the scalar, as with `Int`, so that each query's zod arguments refuse a
 * negative or unsafe one with BAD_USER_INPUT naming the argument; anything else is not a chain id at all.
 */
function integerOf(graphql: GraphqlLibrary, value: unknown): number {
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  return chainIdOf(graphql, Number.NaN);
}

const chainIdScalar = (graphql: GraphqlLibrary) =>
  new graphql.GraphQLScalarType({
    name: 'ChainId',
    serialize: (value) => chainIdOf(graphql, value),
    parseValue: (value) => integerOf(graphql, value),
    parseLiteral: (ast) => integerOf(graphql, ast.kind === graphql.Kind.INT ? Number(ast.value) : Number.NaN),
  });

/** The ChainId scalar of every answer and argument that names a chain: its own part of the schema. */
export const chainIdGraphql: GraphqlModule = {
  typeDefs: /* GraphQL */ `
  "An EIP-155 chain id: a positive integer up to 2^53 - 1 (a JSON number), e.g. 1 for Ethereum."
  scalar ChainId
`,
  resolvers: (graphql) => ({ ChainId: chainIdScalar(graphql) }),
};
