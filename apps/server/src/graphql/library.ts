/**
 * graphql-js, loaded by the first GraphQL request (or the first error that needs its error class), not by
 * the server's start: an idle server that no console has asked anything keeps neither it nor mercurius
 * in memory (docs/decisions/099). Every runtime use of graphql-js in the server goes through here; the
 * rest import its types only.
 */
export type GraphqlLibrary = typeof import('graphql');

let library: GraphqlLibrary | undefined;
let loading: Promise<GraphqlLibrary> | undefined;

/** graphql-js, loaded once. */
export function loadGraphql(): Promise<GraphqlLibrary> {
  loading ??= import('graphql').then((loaded) => {
    library = loaded;
    return loaded;
  });
  return loading;
}

/** graphql-js where it must be loaded already (code that runs only after a GraphQL request began). */
export function loadedGraphql(): GraphqlLibrary {
  if (!library) throw new Error('graphql-js is used before loadGraphql() loaded it.');
  return library;
}
