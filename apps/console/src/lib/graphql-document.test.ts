import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, print } from 'graphql';
import { describe, expect, it } from 'vitest';
// Through src/gql/index.ts: the generated table (imports of `gql/gql` resolve to the runtime module).
import { graphql as generated } from '../gql';
import { graphql as runtime } from './graphql-document';

const src = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The text of every `graphql(\`...\`)` document in the console's sources (what codegen reads too). */
function documentSources(): string[] {
  const sources: string[] = [];
  const visit = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'gql') visit(path);
      } else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) {
        for (const match of readFileSync(path, 'utf8').matchAll(/\bgraphql\(\s*`([^`]*)`/g)) {
          sources.push(match[1] as string);
        }
      }
    }
  };
  visit(src);
  return sources;
}

describe('graphql(...) at runtime', () => {
  const sources = documentSources();

  it('finds the documents of src/', () => {
    expect(sources.length).toBeGreaterThan(30);
  });

  it('sends for every document the same operation as the generated table', () => {
    for (const source of sources) {
      const expected = print(parse(String(generated(source as never))));
      expect(print(parse(runtime(source).toString()))).toBe(expected);
    }
  });

  it('is the text of the document, as graphqlRequest reads it', () => {
    const document = runtime('query Q { me { id } }');
    expect(document.toString()).toBe('query Q { me { id } }');
    expect(`${document}`).toBe('query Q { me { id } }');
  });
});
