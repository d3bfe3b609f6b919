import { originalPositionFor, sourceContentFor, TraceMap } from '@jridgewell/trace-mapping';
import type { StackFrame as MappedFrame, SourceLine } from '@polyflow/contracts/incidents';
import type { MapFiles } from './files.ts';
import { parseStack, pathKeyOf, type StackFrame } from './stack-frames.ts';
import type { SourcemapStore, StoredMap } from './store.ts';

/** Parsed maps kept in memory, by the size of their JSON: the maps of a few releases of a few projects. */
const DEFAULT_CACHE_BYTES = 64 * 1024 * 1024;
/** How often the index of releases with maps is read again (uploads on other nodes). */
const INDEX_REFRESH_MS = 5_000;
/** Lines of `sourcesContent` shown on each side of a frame's line. */
export const CONTEXT_LINES = 5;
const MAX_CONTEXT_LINE_CHARS = 300;

type LoadedMap = { map: TraceMap; bytes: number };
/** A frame's original position, when a map covers it. */
type Original = {
  file: string | null;
  line: number | null;
  column: number | null;
  /** The name the map gives the position (at a call site: the callee's original name). */
  name: string | null;
  context: SourceLine[];
};

/** The source as shown: the map's own text less leading `./` and `../`; null when it lies outside the bundle. */
export function displayedSource(source: string | null): string | null {
  if (!source) return null;
  // Absolute paths and URLs point outside the bundle (a build machine's disk, another site): names only.
  if (/^(?:\/|[a-z]:[\\/]|file:|https?:)/i.test(source)) return null;
  const shown = source.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*\//i, '').replace(/^(?:\.\.?\/)+/, '');
  return shown && /^[^\p{Cc}]*$/u.test(shown) ? shown.slice(0, 500) : null;
}

function contextOf(map: TraceMap, source: string, line: number): SourceLine[] {
  const content = sourceContentFor(map, source);
  if (!content) return [];
  const lines = content.split(/\r\n|\r|\n/);
  const first = Math.max(1, line - CONTEXT_LINES);
  const last = Math.min(lines.length, line + CONTEXT_LINES);
  const context: SourceLine[] = [];
  for (let number = first; number <= last; number += 1) {
    context.push({ line: number, text: (lines[number - 1] ?? '').slice(0, MAX_CONTEXT_LINE_CHARS) });
  }
  return context;
}

/**
 * Maps stack frames through a release's uploaded source maps (@jridgewell/trace-mapping), with a bounded
 * cache of parsed maps. `hasMaps` answers from an in-memory index without waiting, so that ingestion pays
 * nothing for the projects and releases without maps (docs/decisions/066-releases-and-source-maps.md).
 */
export function createSymbolicator(deps: {
  store: Pick<SourcemapStore, 'releasesWithMaps' | 'mapsOf'>;
  files: Pick<MapFiles, 'read'>;
  maxCacheBytes?: number;
}) {
  const maxCacheBytes = deps.maxCacheBytes ?? DEFAULT_CACHE_BYTES;
  let index = new Map<string, Set<string>>();
  let indexLoaded: Promise<void> | undefined;
  let refreshTimer: NodeJS.Timeout | undefined;
  /** Per release: its maps by path key (read from the accounts store once, dropped on upload). */
  const releaseMaps = new Map<string, Promise<Map<string, StoredMap>>>();
  /** Parsed maps by file, least recently used first. */
  const parsed = new Map<string, Promise<LoadedMap | null>>();
  const sizes = new Map<string, number>();
  let cachedBytes = 0;

  const releaseKey = (projectId: string, release: string) => `${projectId}\u0000${release}`;

  async function loadIndex(): Promise<void> {
    const next = new Map<string, Set<string>>();
    for (const { projectId, release } of await deps.store.releasesWithMaps()) {
      const releases = next.get(projectId) ?? new Set<string>();
      next.set(projectId, releases);
      releases.add(release);
    }
    index = next;
    // Releases whose maps were deleted on another node: their rows are read again if they come back.
    for (const key of releaseMaps.keys()) {
      const [projectId = '', release = ''] = key.split('\u0000');
      if (!next.get(projectId)?.has(release)) releaseMaps.delete(key);
    }
  }

  function mapsOfRelease(projectId: string, release: string): Promise<Map<string, StoredMap>> {
    const key = releaseKey(projectId, release);
    let maps = releaseMaps.get(key);
    if (!maps) {
      maps = deps.store.mapsOf(projectId, release).then((rows) => new Map(rows.map((row) => [row.url, row])));
      releaseMaps.set(key, maps);
      maps.catch(() => releaseMaps.delete(key));
    }
    return maps;
  }

  function evict(): void {
    for (const [file] of parsed) {
      if (cachedBytes <= maxCacheBytes) break;
      parsed.delete(file);
      cachedBytes -= sizes.get(file) ?? 0;
      sizes.delete(file);
    }
  }

  function loadMap(stored: StoredMap): Promise<LoadedMap | null> {
    const cached = parsed.get(stored.file);
    if (cached) {
      // Most recently used last.
      parsed.delete(stored.file);
      parsed.set(stored.file, cached);
      return cached;
    }
    const loading = deps.files
      .read(stored.file)
      .then((text) => ({ map: new TraceMap(text), bytes: text.length }))
      // A map deleted meanwhile (its release went past the limit) or unreadable: the frame stays minified.
      .catch(() => null);
    parsed.set(stored.file, loading);
    sizes.set(stored.file, stored.bytes);
    cachedBytes += stored.bytes;
    evict();
    return loading;
  }

  async function originalOf(
    projectId: string,
    release: string,
    frame: StackFrame,
    withContext: boolean,
  ): Promise<Original | null> {
    const key = pathKeyOf(frame.url);
    if (!key) return null;
    const stored = (await mapsOfRelease(projectId, release)).get(key);
    if (!stored) return null;
    const loaded = await loadMap(stored);
    if (!loaded) return null;
    let position: ReturnType<typeof originalPositionFor>;
    try {
      position = originalPositionFor(loaded.map, { line: frame.line, column: Math.max(0, frame.column - 1) });
    } catch {
      return null;
    }
    if (position.source === null || position.line === null) return null;
    const file = displayedSource(position.source);
    return {
      file,
      line: file ? position.line : null,
      column: file && position.column !== null ? position.column + 1 : null,
      name: position.name,
      context: file && withContext ? contextOf(loaded.map, position.source, position.line) : [],
    };
  }

  /**
   * The frames' original positions. A frame's function is the name the map gives its caller's call site
   * (the next frame down), as minifiers rename functions and the map names identifiers where they are
   * used; without one, the browser's name for it.
   */
  async function mapFrames(
    projectId: string,
    release: string | null,
    frames: readonly StackFrame[],
    withContext: boolean,
  ): Promise<MappedFrame[]> {
    const hasRelease = release !== null && hasMaps(projectId, release);
    const originals = hasRelease
      ? await Promise.all(frames.map((frame) => originalOf(projectId, release, frame, withContext)))
      : frames.map(() => null);
    return frames.map((frame, index) => {
      const original = originals[index];
      if (!original) {
        return {
          minified: frame.raw,
          mapped: false,
          function: frame.function,
          file: null,
          line: frame.line,
          column: frame.column,
          context: [],
        };
      }
      const caller = originals[index + 1];
      return {
        minified: frame.raw,
        mapped: true,
        function: caller?.name ?? frame.function,
        file: original.file,
        line: original.line,
        column: original.column,
        context: original.context,
      };
    });
  }

  function hasMaps(projectId: string, release: string): boolean {
    return index.get(projectId)?.has(release) ?? false;
  }

  return {
    /** Reads the index, then again every few seconds (a timer that does not hold the process open). */
    async start(): Promise<void> {
      indexLoaded ??= loadIndex();
      await indexLoaded;
      refreshTimer ??= setInterval(() => {
        loadIndex().catch(() => undefined);
      }, INDEX_REFRESH_MS).unref();
    },
    stop(): void {
      if (refreshTimer) clearInterval(refreshTimer);
      refreshTimer = undefined;
    },

    /** Whether the release has maps (in-memory index; no I/O). */
    hasMaps,

    /** After an upload on this node: the release is mapped from now on, with its new maps. */
    changed(projectId: string, release: string, deletedReleases: readonly string[]): void {
      const releases = index.get(projectId) ?? new Set<string>();
      index.set(projectId, releases);
      releases.add(release);
      releaseMaps.delete(releaseKey(projectId, release));
      for (const deleted of deletedReleases) {
        releases.delete(deleted);
        releaseMaps.delete(releaseKey(projectId, deleted));
      }
    },

    /**
     * After a release's maps were deleted on this node: it is not mapped from now on, and its parsed maps
     * leave the cache (other nodes stop mapping it at their next read of the index).
     */
    removed(projectId: string, release: string, deletedFiles: readonly string[]): void {
      index.get(projectId)?.delete(release);
      releaseMaps.delete(releaseKey(projectId, release));
      for (const file of deletedFiles) {
        if (!parsed.delete(file)) continue;
        cachedBytes -= sizes.get(file) ?? 0;
        sizes.delete(file);
      }
    },

    /** The stack's frames for the console: mapped where a map of the release covers them, with context. */
    async mapStack(projectId: string, release: string | null, stack: string | null): Promise<MappedFrame[]> {
      return mapFrames(projectId, release, parseStack(stack), true);
    },

    /**
     * The original top frame as the fingerprint's `file:function`, or null when no map covers it (then the
     * minified one is used, as without maps). Only the first two frames are mapped (the second names the
     * first's function).
     */
    async originalTopFrame(projectId: string, release: string, stack: string): Promise<string | null> {
      const frames = parseStack(stack).slice(0, 2);
      const [top] = await mapFrames(projectId, release, frames, false);
      if (!top?.mapped || !top.file) return null;
      return `${top.file}:${top.function ?? '<anonymous>'}`;
    },
  };
}

export type Symbolicator = ReturnType<typeof createSymbolicator>;
