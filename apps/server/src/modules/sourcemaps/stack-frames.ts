/**
 * Stack frames of an error's `stack` as browsers write them: Chromium (V8) `    at fn (url:line:col)` or
 * `    at url:line:col`, Firefox and Safari `fn@url:line:col`. Lines that are neither (the message, `eval`
 * frames without a position) are left out. Lines and columns are 1-based, as the browser prints them.
 */
export type StackFrame = {
  /** As the browser named it (`a`, `Object.onClick`, `async n`); null for an anonymous frame. */
  function: string | null;
  url: string;
  line: number;
  column: number;
  /** The line of the stack as sent. */
  raw: string;
};

const V8_FRAME = /^\s*at\s+(?:(.*?)\s+\()?(.+?):(\d+):(\d+)\)?\s*$/;
const GECKO_FRAME = /^\s*([^@\s]*)@(.+?):(\d+):(\d+)\s*$/;
/** Frames read per stack: the console shows these; deeper ones are framework internals. */
export const MAX_FRAMES = 50;

function functionName(name: string | undefined): string | null {
  const cleaned = (name ?? '')
    .replace(/^(?:async|new)\s+/, '')
    .replace(/\s+\[as [^\]]+\]$/, '')
    .trim();
  return cleaned || null;
}

export function parseStack(stack: string | null | undefined): StackFrame[] {
  if (!stack) return [];
  const frames: StackFrame[] = [];
  for (const raw of stack.split('\n')) {
    if (frames.length >= MAX_FRAMES) break;
    const match = /^\s*at\s/.test(raw) ? V8_FRAME.exec(raw) : GECKO_FRAME.exec(raw);
    if (!match?.[2] || !/[/:]/.test(match[2])) continue;
    const line = Number(match[3]);
    const column = Number(match[4]);
    if (!Number.isSafeInteger(line) || !Number.isSafeInteger(column) || line < 1) continue;
    frames.push({ function: functionName(match[1]), url: match[2].trim(), line, column, raw: raw.trim() });
  }
  return frames;
}

/**
 * The key a frame's file is looked up by among a release's maps: the URL's path without host, query or
 * fragment (`https://app.example.com/assets/index.js?v=2` → `/assets/index.js`); null for what is no URL.
 */
export function pathKeyOf(url: string): string | null {
  try {
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) return new URL(url).pathname;
  } catch {
    return null;
  }
  const path = url.replace(/[?#].*$/, '');
  return path.startsWith('/') ? path : null;
}

/**
 * An uploaded map's name as the minified file's path key: `~/assets/index.js.map` (any host), a full URL
 * or an absolute path, with `.map` taken off. Null when it names no such file.
 */
export function pathKeyOfUpload(name: string): string | null {
  if (!name.endsWith('.map') || name.length > 1024) return null;
  const file = name.slice(0, -'.map'.length);
  if (file.startsWith('~/')) return normalise(file.slice(1));
  if (/^https?:\/\//i.test(file)) {
    const key = pathKeyOf(file);
    return key && normalise(key);
  }
  return file.startsWith('/') ? normalise(file) : null;
}

function normalise(path: string): string | null {
  const parts: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') return null;
    parts.push(part);
  }
  const key = `/${parts.join('/')}`;
  return parts.length > 0 && /^[^\p{Cc}]*$/u.test(key) ? key : null;
}
