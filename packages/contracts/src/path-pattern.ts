import { z } from 'zod';
import { LABEL_MESSAGE, LABEL_PATTERN } from './text.ts';

/**
 * Page path patterns (docs/goals.md#page-path-patterns), the one definition goals and custom funnels share. A pattern
 * is `/` or `/`-separated segments; a segment is literal text, `*` (exactly one segment) or `**` (any
 * number of segments, none included). A path matches when the whole of it matches; one trailing `/` of the
 * path is ignored (`/docs` matches `/docs/`). `*` inside a segment (`/blog-*`) is not a wildcard and is
 * refused, so a pattern never means something other than it reads; so are spaces, `?` and `#`.
 */
export const MAX_PATH_PATTERN = 256;

/** Why `pattern` is not a valid path pattern, or null when it is. */
export function pathPatternProblem(pattern: string): string | null {
  if (pattern.length === 0 || pattern.length > MAX_PATH_PATTERN)
    return `must be 1 to ${MAX_PATH_PATTERN} characters`;
  if (!LABEL_PATTERN.test(pattern)) return LABEL_MESSAGE;
  if (!pattern.startsWith('/')) return 'must start with /';
  if (pattern === '/') return null;
  const segments = pattern.slice(1).split('/');
  for (const segment of segments) {
    if (segment === '') return 'must not have an empty segment (// or a trailing /)';
    if (segment.includes('?') || segment.includes('#')) return 'a path has no query (?) or fragment (#)';
    if (/\s/.test(segment)) return 'must not contain spaces';
    if (segment !== '*' && segment !== '**' && segment.includes('*'))
      return '* and ** stand for whole segments only (/blog/*, not /blog-*)';
  }
  return null;
}

const escaped = (segment: string) => segment.replace(/[\\^$.|?*+()[\]{}]/g, '\\$&');

/**
 * The pattern as an anchored regular expression of the syntax RE2 (DuckDB, ClickHouse) and JavaScript
 * share. Call it only with a valid pattern (`pathPatternProblem` null).
 */
export function pathPatternRegex(pattern: string): string {
  if (pattern === '/') return '^/$';
  const body = pattern
    .slice(1)
    .split('/')
    .map((segment) =>
      segment === '**' ? '(?:/[^/]+)*' : segment === '*' ? '/[^/]+' : `/${escaped(segment)}`,
    )
    .join('');
  return `^${body}/?$`;
}

/** Whether `path` matches the (valid) pattern, as the event store's questions decide it. */
export function matchesPathPattern(pattern: string, path: string): boolean {
  return new RegExp(pathPatternRegex(pattern), 'u').test(path);
}

export const PathPatternSchema = z.string().superRefine((pattern, context) => {
  const problem = pathPatternProblem(pattern);
  if (problem) context.addIssue({ code: 'custom', message: problem });
});
