/**
 * What `graphql(...)` is when the console runs: the document's own text, as a `TypedDocumentString`.
 *
 * The generated src/gql/gql.ts (GraphQL Code Generator, `npm run codegen`) gives every `graphql(...)` call its
 * result and variables types, for the typecheck; at runtime it only looks the text up in a table of the same
 * texts. The console's build and its tests resolve `gql/gql` imports to this module instead (vite.config.ts,
 * vitest.config.ts), so building needs neither the generator (a dev dependency: a first start does not
 * install it) nor a fresh src/gql/. That is exact while the documents use no fragments: the generated text is
 * then the source's (graphql-document.test.ts checks every document of src/ against the generated table).
 */
export class TypedDocumentString extends String {
  private readonly value: string;

  constructor(value: string) {
    super(value);
    this.value = value;
  }

  override toString(): string {
    return this.value;
  }
}

export function graphql(source: string): TypedDocumentString {
  return new TypedDocumentString(source);
}
