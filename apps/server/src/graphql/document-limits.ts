/** Levels of fields one operation may nest (mercurius's `queryDepth`: a fragment spread adds no level). */
export const MAX_QUERY_DEPTH = 12;

/**
 * Brackets (`{`, `[`, `(`) a document may nest, checked on its text before graphql-js parses it: its parser
 * and several of its validation rules recurse once per level, and a document a few thousand levels deep
 * overflowed Node's stack, answered as "Maximum call stack size exceeded" (docs/decisions/166). An operation
 * within the depth limit, with its arguments' values (this schema's inputs nest 3 deep), stays far below.
 */
export const MAX_NESTING = 64;

/**
 * Fragment definitions a document may hold: graphql-js looks for fragment cycles recursively, one call per
 * fragment of a chain spreading the next, and a chain of 5,000 overflowed the stack (500 INTERNAL_ERROR).
 * The console's documents define none.
 */
export const MAX_FRAGMENTS = 100;

// The scan's character classes, by code (ASCII; any other character is none of them). A digit continues a
// name; a letter or `_` starts one and continues it too (NAME_START > NAME_PART).
const OPENS = 1;
const CLOSES = 2;
const NAME_PART = 3;
const NAME_START = 4;
const KINDS = new Uint8Array(128);
for (const char of '{[(') KINDS[char.charCodeAt(0)] = OPENS;
for (const char of '}])') KINDS[char.charCodeAt(0)] = CLOSES;
for (let code = 0; code < 128; code++) {
  const char = String.fromCharCode(code);
  if (/[_A-Za-z]/.test(char)) KINDS[code] = NAME_START;
  else if (/[0-9]/.test(char)) KINDS[code] = NAME_PART;
}
const kindOf = (code: number): number => (code < 128 ? (KINDS[code] as number) : 0);

/** Where a string that starts at `start` ends (past its closing quotes), as graphql-js's lexer reads it. */
function afterString(source: string, start: number): number {
  if (source.startsWith('"""', start)) {
    let end = source.indexOf('"""', start + 3);
    // `\"""` is a block string's escaped triple quote, not its end.
    while (end !== -1 && source[end - 1] === '\\') end = source.indexOf('"""', end + 1);
    return end === -1 ? source.length : end + 3;
  }
  let at = start + 1;
  while (at < source.length) {
    const char = source[at];
    if (char === '"') return at + 1;
    // Unterminated: the parser refuses it.
    if (char === '\n' || char === '\r') return at;
    at += char === '\\' ? 2 : 1;
  }
  return source.length;
}

function parsesAsJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * Why a GraphQL document's text is refused before mercurius parses it, or null. Mercurius takes a query
 * that is not GraphQL but parses as JSON for a ready-made syntax tree, which GraphQL's validation then
 * crashes on (`{"query": 12}`: the body schema makes it "12"); no GraphQL document is valid JSON, and
 * JSON.parse gives up on a real document at its first words. Then one pass over the text, skipping strings
 * and comments, for its nesting and its fragment definitions.
 */
export function documentRefusal(source: string): string | null {
  if (parsesAsJson(source)) return 'The query must be a GraphQL document.';
  let depth = 0;
  let fragments = 0;
  let at = 0;
  while (at < source.length) {
    const code = source.charCodeAt(at);
    const kind = kindOf(code);
    if (code === 0x23 /* # */) {
      while (at < source.length && source[at] !== '\n' && source[at] !== '\r') at += 1;
    } else if (code === 0x22 /* " */) {
      at = afterString(source, at);
    } else if (kind === OPENS) {
      depth += 1;
      if (depth > MAX_NESTING) {
        return `The document is nested more than ${MAX_NESTING} levels deep ({, [ and ( counted); an operation may be at most ${MAX_QUERY_DEPTH} levels deep.`;
      }
      at += 1;
    } else if (kind === CLOSES) {
      depth = Math.max(0, depth - 1);
      at += 1;
    } else if (kind === NAME_START) {
      const start = at;
      at += 1;
      while (at < source.length && kindOf(source.charCodeAt(at)) >= NAME_PART) at += 1;
      // Outside brackets a name is a keyword, an operation's or fragment's name or a type condition; a
      // directive named `fragment` (after `@`) is not a definition.
      const isDefinition = depth === 0 && source[start - 1] !== '@' && source.slice(start, at) === 'fragment';
      if (isDefinition && ++fragments > MAX_FRAGMENTS) {
        return `A document may define at most ${MAX_FRAGMENTS} fragments; this one defines more.`;
      }
    } else {
      at += 1;
    }
  }
  return null;
}
