import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';

/**
 * `polyflow sourcemaps upload --release X --url-prefix '~/assets' dist/`: uploads every `.map` file under
 * the directory to a Polyflow server, each named by the URL its minified file is served at
 * (docs/source-maps.md). No dependencies: Node's own fetch, FormData and argument parser.
 */

const USAGE = `Usage: polyflow sourcemaps upload --release <release> --url-prefix <prefix> [options] <dir>

Uploads every .map file under <dir> as the source maps of <release>.

  --release <name>      the release, as given to the SDK's release option (1-64 characters)
  --url-prefix <prefix> where <dir>'s files are served, e.g. '~/assets' (~: any host; quote it, or the shell
                        makes it your home directory) or
                        https://app.example.com/assets
  --url <url>           the Polyflow server (or POLYFLOW_URL), e.g. https://polyflow.example.com
  --project <id>        the project's id (or POLYFLOW_PROJECT)
  --token <token>       a write token pfw_... (or POLYFLOW_TOKEN); an admin's session token works too
  -h, --help            this text`;

/** Requests are cut at this size; the server allows 50 MB per release in all. */
const MAX_REQUEST_BYTES = 8 * 1024 * 1024;
const MAX_RELEASE_LENGTH = 64;

class UsageError extends Error {}

/** Human-readable size: 1.2 MB, 340 KB, 12 B. */
export function formatBytes(bytes) {
  if (bytes >= 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} B`;
}

/** Every `.map` file under `dir`, as paths relative to it with `/` separators, sorted. */
export async function findMaps(dir) {
  const found = [];
  async function walk(relative) {
    const entries = await readdir(path.join(dir, relative), { withFileTypes: true });
    for (const entry of entries) {
      const child = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) await walk(child);
      else if (entry.isFile() && entry.name.endsWith('.map')) found.push(child);
    }
  }
  await walk('');
  return found.sort();
}

/** The name the server files a map under: the URL prefix plus its path in the directory. */
export function uploadName(prefix, relative) {
  return `${prefix.replace(/\/+$/, '')}/${relative}`;
}

function checkOptions(values, positionals, env) {
  const release = values.release;
  if (!release) throw new UsageError('--release is required.');
  if (release.length > MAX_RELEASE_LENGTH || /\p{Cc}/u.test(release)) {
    throw new UsageError(
      `--release must be 1 to ${MAX_RELEASE_LENGTH} characters without control characters.`,
    );
  }
  const prefix = values['url-prefix'];
  if (!prefix) throw new UsageError('--url-prefix is required, e.g. ~/assets.');
  if (!/^(~\/|~$|\/|https?:\/\/)/.test(prefix)) {
    throw new UsageError('--url-prefix must start with ~/ (any host), / or http(s)://.');
  }
  // An unquoted ~/assets reaches us as the shell made it: $HOME/assets. Its maps would be stored under a path
  // no page is served from, and no frame would ever be mapped.
  const home = env.HOME?.replace(/\/+$/, '');
  if (home && (prefix === home || prefix.startsWith(`${home}/`))) {
    throw new UsageError(
      `--url-prefix ${prefix} is your home directory: the shell expanded ~. Quote it: --url-prefix '~${prefix.slice(home.length)}'.`,
    );
  }
  const server = values.url ?? env.POLYFLOW_URL;
  if (!server) throw new UsageError('--url (or POLYFLOW_URL) is required: the Polyflow server.');
  let base;
  try {
    base = new URL(server);
  } catch {
    throw new UsageError(`--url ${server} is not a URL.`);
  }
  const project = values.project ?? env.POLYFLOW_PROJECT;
  if (!project) throw new UsageError('--project (or POLYFLOW_PROJECT) is required: the project id.');
  const token = values.token ?? env.POLYFLOW_TOKEN;
  if (!token) throw new UsageError('--token (or POLYFLOW_TOKEN) is required: a write token pfw_...');
  if (positionals.length !== 1) throw new UsageError('Name one directory to upload, e.g. dist/.');
  return { release, prefix, base, project, token, dir: positionals[0] };
}

/** Cuts the maps into requests of at most MAX_REQUEST_BYTES (a bigger map goes alone). */
function batches(files) {
  const groups = [];
  let current = [];
  let size = 0;
  for (const file of files) {
    if (current.length > 0 && size + file.bytes > MAX_REQUEST_BYTES) {
      groups.push(current);
      current = [];
      size = 0;
    }
    current.push(file);
    size += file.bytes;
  }
  if (current.length > 0) groups.push(current);
  return groups;
}

async function upload(options, io) {
  const info = await stat(options.dir).catch(() => null);
  if (!info?.isDirectory()) throw new UsageError(`${options.dir} is not a directory.`);
  const relatives = await findMaps(options.dir);
  if (relatives.length === 0) {
    io.err(
      `No .map files under ${options.dir}: build with source maps on (e.g. esbuild --sourcemap, Vite build.sourcemap).`,
    );
    return 1;
  }
  const files = [];
  for (const relative of relatives) {
    const content = await readFile(path.join(options.dir, relative));
    files.push({ relative, name: uploadName(options.prefix, relative), content, bytes: content.length });
  }
  const total = files.reduce((sum, file) => sum + file.bytes, 0);
  const endpoint = new URL(
    `api/v1/projects/${encodeURIComponent(options.project)}/releases/${encodeURIComponent(options.release)}/sourcemaps`,
    options.base.href.endsWith('/') ? options.base : `${options.base.href}/`,
  );
  io.out(
    `Uploading ${files.length} source map${files.length === 1 ? '' : 's'} (${formatBytes(total)}) for release ${options.release} to ${options.base.origin}`,
  );
  const groups = batches(files);
  let sent = 0;
  let last;
  for (const [index, group] of groups.entries()) {
    const form = new FormData();
    for (const file of group) form.append('file', new Blob([file.content]), file.name);
    let response;
    try {
      response = await fetch(endpoint, {
        method: 'POST',
        headers: { authorization: `Bearer ${options.token}` },
        body: form,
      });
    } catch (error) {
      io.err(`Cannot reach ${options.base.origin}: ${error.cause?.message ?? error.message}`);
      return 1;
    }
    const text = await response.text();
    let body;
    try {
      body = JSON.parse(text);
    } catch {
      body = null;
    }
    if (!response.ok) {
      const reason = body?.errorCode ? `${body.errorCode}: ${body.message}` : `HTTP ${response.status}`;
      io.err(`Upload refused (${response.status}) ${reason}`);
      if (response.status === 401)
        io.err("Check the token: create a write token on the project's SDK screen (Write tokens).");
      if (sent > 0) io.err(`${sent} of ${files.length} maps were stored before this request.`);
      return 1;
    }
    sent += group.length;
    last = body;
    const bytes = group.reduce((sum, file) => sum + file.bytes, 0);
    io.out(
      `  [${index + 1}/${groups.length}] ${group.length} map${group.length === 1 ? '' : 's'}, ${formatBytes(bytes)}: ${group.map((file) => file.relative).join(', ')}`,
    );
    // The file each map is for: what an error's frame URL must match (~: any host).
    for (const stored of body?.uploaded ?? []) io.out(`    maps the frames of ${stored.url}`);
  }
  io.out(
    `Done: release ${options.release} holds ${formatBytes(last?.releaseBytes ?? total)} of source maps.`,
  );
  if (last?.deletedReleases?.length > 0) {
    io.out(`Older releases' maps deleted to stay within 100 releases: ${last.deletedReleases.join(', ')}`);
  }
  return 0;
}

/** Runs the command line; answers the exit code (0 done, 1 refused or failed, 2 wrong usage). */
export async function main(argv, env, io) {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        release: { type: 'string' },
        'url-prefix': { type: 'string' },
        url: { type: 'string' },
        project: { type: 'string' },
        token: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    io.err(`${error.message}\n\n${USAGE}`);
    return 2;
  }
  const [group, command, ...rest] = parsed.positionals;
  if (parsed.values.help || !group) {
    io.out(USAGE);
    return parsed.values.help ? 0 : 2;
  }
  if (group !== 'sourcemaps' || command !== 'upload') {
    io.err(`Unknown command: ${[group, command].filter(Boolean).join(' ')}\n\n${USAGE}`);
    return 2;
  }
  try {
    return await upload(checkOptions(parsed.values, rest, env), io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`${error.message}\n\n${USAGE}`);
      return 2;
    }
    io.err(`Failed: ${error.message}`);
    return 1;
  }
}
