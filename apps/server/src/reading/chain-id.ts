import { GraphQLError, GraphQLScalarType, Kind } from 'graphql';
import type { GraphqlModule } from '../graphql/module.ts';

/**
 * EIP-155 chain ids are stored up to 2^53 − 1 (packages/contracts, `chainId`), past GraphQL's 32-bit `Int`:
 * a chain such as 11297108109 would fail the answer's serialisation. This scalar is a JSON number, any
 * positive safe integer, in both directions.
 */
function chainIdOf(value: unknown): number {
  const id = typeof value === 'bigint' ? Number(value) : typeof value === 'string' ? Number(value) : value;
  if (typeof id === 'number' && Number.isSafeInteger(id) && id > 0) return id;
  throw new GraphQLError('A chain id is a positive integer up to 2^53 - 1.', {
    extensions: { code: 'BAD_USER_INPUT', errorCode: 'INVALID_REQUEST' },
  });
}

const ChainIdScalar = new GraphQLScalarType({
  name: 'ChainId',
  serialize: chainIdOf,
  parseValue: (value) => {
    if (typeof value !== 'number') return chainIdOf(Number.NaN);
    return chainIdOf(value);
  },
  parseLiteral: (ast) => (ast.kind === Kind.INT ? chainIdOf(Number(ast.value)) : chainIdOf(Number.NaN)),
});

/** The ChainId scalar of every answer and argument that names a chain: its own part of the schema. */
export const chainIdGraphql: GraphqlModule = {
  typeDefs: /* GraphQL */ `
  "An EIP-155 chain id: a positive integer up to 2^53 - 1 (a JSON number), e.g. 1 for Ethereum."
  scalar ChainId
`,
  resolvers: { ChainId: ChainIdScalar },
};
