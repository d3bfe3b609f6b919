// Mercurius's error classes (lib/errors.js, untyped): the endpoint (plugin.ts) refuses a request with the
// same errors mercurius's own routes throw.
declare module 'mercurius/lib/errors.js' {
  type MercuriusError<Args extends unknown[]> = new (
    ...args: Args
  ) => Error & { code: string; statusCode: number; errors?: unknown[] };
  const errors: {
    MER_ERR_GQL_VALIDATION: MercuriusError<[]>;
    MER_ERR_GQL_PERSISTED_QUERY_NOT_FOUND: MercuriusError<[message: string]>;
  };
  export default errors;
}
