import type { FastifyRequest } from 'fastify';
import type { IResolvers, MercuriusContext } from 'mercurius';
import type { AuthUser } from '../modules/auth/sessions.ts';
import type { Reader } from '../reading/reader.ts';
import type { GraphqlLibrary } from './library.ts';

/** What plugin.ts adds to every resolver's context (mercurius' own `reply` and `app` stay). */
declare module 'mercurius' {
  interface MercuriusContext {
    request: FastifyRequest;
    /** The console user of an `Authorization: Bearer` request, or a BAD_AUTHENTICATION error. */
    requireUser(): Promise<AuthUser>;
    /** A console session or a read token (the dashboard queries), or a BAD_AUTHENTICATION error. */
    requireReader(): Promise<Reader>;
    /** The `X-API-KEY` header (dapps on the published 1.0.25 SDK; tolerated from the console). */
    apiKey: string | undefined;
  }
}

export type GraphqlContext = MercuriusContext;

/**
 * A module's part of the schema: its SDL (extending `Query`/`Mutation`) and its resolvers, or a function
 * making them from graphql-js (a scalar's `GraphQLScalarType`), called when the first GraphQL request
 * builds the schema (library.ts).
 */
export type GraphqlModule = {
  typeDefs: string;
  resolvers: IResolvers | ((graphql: GraphqlLibrary) => IResolvers);
};
