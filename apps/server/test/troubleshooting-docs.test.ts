import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ErrorCodes } from '@polyflow/contracts/errors';
import { describe, expect, it } from 'vitest';
import { CODE_BY_STATUS } from '../src/reading/graphql-errors.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const serverSource = path.resolve(here, '../src');
const troubleshooting = path.resolve(here, '../../../docs/troubleshooting.md');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(path.join(dir, entry.name))
      : entry.name.endsWith('.ts')
        ? [path.join(dir, entry.name)]
        : [],
  );
}

/**
 * Every code a client can read in an answer: the contract's REST codes (AppError takes no other), the
 * GraphQL codes of the reading queries, and any code written literally (`errorCode: 'X'` in a hand-built
 * body, `code: 'X'` in a GraphQL error's extensions) anywhere in the server's source.
 */
function answerableCodes(): Set<string> {
  const codes = new Set<string>([...ErrorCodes, ...Object.values(CODE_BY_STATUS)]);
  for (const file of sourceFiles(serverSource)) {
    for (const match of readFileSync(file, 'utf8').matchAll(/\b(?:errorCode|code):\s*'([A-Z][A-Z0-9_]+)'/g)) {
      codes.add(match[1] as string);
    }
  }
  return codes;
}

describe('docs/troubleshooting.md', () => {
  it('explains every errorCode and GraphQL code the server can answer, each under its own heading', () => {
    const codes = answerableCodes();
    expect(codes.size).toBeGreaterThan(20);
    expect(codes).toContain('GRAPHQL_VALIDATION_FAILED');
    const headings = new Set(
      [...readFileSync(troubleshooting, 'utf8').matchAll(/^### `([A-Z0-9_]+)`$/gm)].map((match) => match[1]),
    );
    const missing = [...codes].filter((code) => !headings.has(code));
    expect(missing, 'codes without a "### `CODE`" section in docs/troubleshooting.md').toEqual([]);
  });
});
