import { fileURLToPath } from 'node:url';
import type { CodegenConfig } from '@graphql-codegen/cli';

const path = (relative: string) => fileURLToPath(new URL(relative, import.meta.url));

/**
 * The TypeScript types of the console's GraphQL operations, generated from the committed schema
 * (docs/graphql-schema.graphql, written by `npm run docs:graphql`) and the `graphql(...)` documents of
 * src/ into src/gql/ (not committed). `npm run codegen` writes them; typecheck and the console's
 * vitest project run it first. A document naming a field or argument the schema lacks fails here.
 */
const config: CodegenConfig = {
  schema: path('../../docs/graphql-schema.graphql'),
  documents: [path('src/**/*.{ts,tsx}'), `!${path('src/gql/**')}`, `!${path('src/**/*.test.{ts,tsx}')}`],
  ignoreNoDocuments: false,
  generates: {
    [path('src/gql/')]: {
      preset: 'client',
      presetConfig: { fragmentMasking: false },
      config: {
        // A document is a string with its result and variables types (no GraphQL AST in the bundle).
        documentMode: 'string',
        enumsAsTypes: true,
        skipTypename: true,
        useTypeImports: true,
        // A nullable field is always present, null when empty (as the server answers).
        avoidOptionals: { field: true, inputValue: false, object: true, defaultValue: false },
        strictScalars: true,
        scalars: { DateTime: 'string', UUID: 'string', ChainId: 'number' },
      },
    },
  },
};

export default config;
