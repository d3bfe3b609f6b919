import { formatBytes } from '@polyflow/contracts/bytes';
import type {
  CreatedWriteToken,
  SourcemapReleaseList,
  SourcemapUploadResult,
  WriteToken,
} from '@polyflow/contracts/sourcemaps';
import {
  MAX_SOURCEMAP_BYTES_PER_RELEASE,
  MAX_SOURCEMAP_RELEASES,
  ReleaseSchema,
} from '@polyflow/contracts/sourcemaps';
import { AppError, badRequest, notFound } from '../../errors.ts';
import type { Actor, AuditRecorder, ProjectAccess } from '../../lib/access.ts';
import type { Clock } from '../../lib/clock.ts';
import { isId, newId, newWriteToken, sha256 } from '../../lib/ids.ts';
import type { MapFiles } from './files.ts';
import { pathKeyOfUpload } from './stack-frames.ts';
import type { PutMapsResult, SourcemapStore } from './store.ts';
import type { Symbolicator } from './symbolicator.ts';

export const MAX_WRITE_TOKENS_PER_PROJECT = 25;

/**
 * Storage bounds across projects (docs/source-maps.md): the maps of every project one account owns together,
 * and the free disk an upload must leave on the file system holding DATA_DIR (events need it more).
 */
export type SourcemapLimits = { accountMaxBytes: number; minFreeDiskBytes: number };
const MB = 1024 * 1024;
/** 5 GB: one project filled to its own limits (100 releases × 50 MB); more projects share it. */
export const DEFAULT_SOURCEMAP_ACCOUNT_MAX_BYTES = 5120 * MB;
/** 1 GB: four times the free space below which the health check fails (HEALTH_MIN_FREE_DISK_MB, 256). */
export const DEFAULT_SOURCEMAP_MIN_FREE_DISK_BYTES = 1024 * MB;
export const DEFAULT_SOURCEMAP_LIMITS: SourcemapLimits = {
  accountMaxBytes: DEFAULT_SOURCEMAP_ACCOUNT_MAX_BYTES,
  minFreeDiskBytes: DEFAULT_SOURCEMAP_MIN_FREE_DISK_BYTES,
};
const WRITE_TOKEN_PATTERN = /^pfw_[0-9A-Za-z]{40}$/;
/** Who uploads: a member with the `manage` right (session), or a write token of the project. */
export type Uploader = { kind: 'session'; actor: Actor } | { kind: 'token'; token: string; ip: string };

/** One file part of an upload: its name (the minified file's URL + `.map`) and its bytes. */
export type UploadedFile = { name: string; content: Buffer };

export const invalidSourceMap = (message: string) => new AppError(400, 'INVALID_SOURCE_MAP', message);

export function parseRelease(release: string): string {
  if (!ReleaseSchema.safeParse(release).success) {
    throw badRequest('Invalid release: 1 to 64 characters without control characters.', [
      { path: 'release', message: 'expected 1 to 64 characters without control characters' },
    ]);
  }
  return release;
}

/** Checks one map: JSON, version 3, with mappings and sources (a sectioned index map is refused). */
function checkMap(file: UploadedFile): void {
  let json: unknown;
  try {
    json = JSON.parse(file.content.toString('utf8'));
  } catch {
    throw invalidSourceMap(`${file.name.slice(0, 200)} is not JSON.`);
  }
  const map = json as { version?: unknown; mappings?: unknown; sources?: unknown };
  if (typeof json !== 'object' || json === null || map.version !== 3) {
    throw invalidSourceMap(`${file.name.slice(0, 200)} is not a version 3 source map.`);
  }
  if (typeof map.mappings !== 'string' || !Array.isArray(map.sources)) {
    throw invalidSourceMap(
      `${file.name.slice(0, 200)} has no mappings or sources (index maps are not supported).`,
    );
  }
}

export type SourcemapServiceDeps = {
  store: SourcemapStore;
  files: MapFiles;
  symbolicator: Symbolicator;
  projects: ProjectAccess;
  clock: Clock;
  audit: AuditRecorder;
  limits?: Partial<SourcemapLimits>;
};

/**
 * Write tokens and source-map uploads (docs/source-maps.md). Admins and the owner create and revoke write
 * tokens (shown once); a write token uploads its project's maps and does nothing else.
 */
export function createSourcemapService({
  store,
  files,
  symbolicator,
  projects,
  clock,
  audit,
  limits: given = {},
}: SourcemapServiceDeps) {
  const limits: SourcemapLimits = { ...DEFAULT_SOURCEMAP_LIMITS, ...given };
  // Bytes of uploads being written on this node: counted as used until their files are on disk and
  // recorded, so uploads at once cannot each see the same free space.
  let writingBytes = 0;

  /** The project the uploader may upload to, and who the audit log names. */
  async function uploaderActor(
    uploader: Uploader,
    projectId: string,
  ): Promise<{ actor: Actor; token?: string }> {
    if (uploader.kind === 'session') {
      await projects.getProjectFor(uploader.actor.id, projectId, 'manage');
      return { actor: uploader.actor };
    }
    const found = WRITE_TOKEN_PATTERN.test(uploader.token)
      ? await store.findWriteToken(sha256(uploader.token))
      : null;
    if (!found) throw new AppError(401, 'BAD_AUTHENTICATION', 'Unknown or revoked write token.');
    // Another project's token: the project looks absent, as to a non-member.
    if (found.projectId !== projectId) throw notFound('Project not found.');
    const email = (await store.userEmail(found.createdBy)) ?? 'former member';
    return { actor: { id: found.createdBy, email, ip: uploader.ip }, token: found.name };
  }

  return {
    /** 401/404 before the body is read: the route checks the caller first, then streams the parts. */
    authorizeUpload: uploaderActor,

    /**
     * Stores a release's maps: all checked first (JSON, version 3, names), then written, then recorded in
     * one transaction; any refusal leaves nothing stored.
     */
    async upload(
      who: { actor: Actor; token?: string },
      projectId: string,
      release: string,
      uploaded: readonly UploadedFile[],
    ): Promise<SourcemapUploadResult> {
      if (uploaded.length === 0)
        throw invalidSourceMap('No source map in the upload: send .map files as file parts.');
      const byUrl = new Map<string, UploadedFile>();
      for (const file of uploaded) {
        const url = pathKeyOfUpload(file.name);
        if (!url) {
          throw invalidSourceMap(
            `${file.name.slice(0, 200)}: name each file by its minified file's URL plus .map (e.g. ~/assets/index.js.map).`,
          );
        }
        checkMap(file);
        byUrl.set(url, file);
      }
      const entries = [...byUrl];
      const total = entries.reduce((sum, [, file]) => sum + file.content.length, 0);
      if (total > MAX_SOURCEMAP_BYTES_PER_RELEASE) throw tooLarge();
      // Checked and reserved in one step (no await between): two uploads cannot both take the last room.
      const freeBytes = await files.freeBytes();
      if (freeBytes - writingBytes - total < limits.minFreeDiskBytes) throw diskReserveReached(limits);
      writingBytes += total;
      let result: PutMapsResult;
      let names: string[];
      try {
        names = await files.write(
          projectId,
          entries.map(([, file]) => file.content),
        );
        const now = clock().toISOString();
        try {
          result = await store.putMaps({
            projectId,
            release,
            files: entries.map(([url, file], index) => ({
              url,
              file: names[index] as string,
              bytes: file.content.length,
              uploaded_at: now,
            })),
            now,
            maxBytes: MAX_SOURCEMAP_BYTES_PER_RELEASE,
            maxReleases: MAX_SOURCEMAP_RELEASES,
            maxAccountBytes: limits.accountMaxBytes,
          });
        } catch (error) {
          await files.remove(names);
          throw error;
        }
      } finally {
        writingBytes -= total;
      }
      if (result.outcome !== 'stored') {
        await files.remove(names);
        throw result.outcome === 'release-too-large'
          ? tooLarge()
          : accountQuotaReached(result.accountBytes, total, limits);
      }
      const deletedReleases = result.deleted.map((deleted) => deleted.release);
      symbolicator.changed(projectId, release, deletedReleases);
      await files.remove([...result.replaced, ...result.deleted.flatMap((deleted) => deleted.files)]);
      await audit.record({
        projectId,
        actor: who.actor,
        action: 'sourcemaps.upload',
        target: release,
        details: {
          files: entries.length,
          bytes: total,
          ...(who.token ? { writeToken: who.token } : {}),
          ...(deletedReleases.length > 0 ? { deletedReleases: deletedReleases.join(', ') } : {}),
        },
      });
      return {
        release,
        uploaded: entries.map(([url, file]) => ({ url: `~${url}`, bytes: file.content.length })),
        releaseBytes: result.releaseBytes,
        deletedReleases,
      };
    },

    /** The releases with maps, and the maps of every project of the project's owner against their limit. */
    async releaseList(userId: string, projectId: string): Promise<SourcemapReleaseList> {
      const project = await projects.getProjectFor(userId, projectId);
      const [releases, bytes] = await Promise.all([
        store.listReleases(projectId),
        store.accountBytes(project.ownerId),
      ]);
      return { releases, account: { bytes, maxBytes: limits.accountMaxBytes } };
    },

    /**
     * Deletes a release's maps, rows and files, to make room (docs/source-maps.md): admins and the owner, as
     * for uploads from the console. Its errors are mapped from then on as a release without maps.
     */
    async deleteRelease(actor: Actor, projectId: string, rawRelease: string): Promise<void> {
      await projects.getProjectFor(actor.id, projectId, 'manage');
      const release = parseRelease(rawRelease);
      const deleted = await store.deleteRelease(projectId, release);
      if (deleted === null) {
        throw notFound(`This project has no source maps for release ${release}.`);
      }
      symbolicator.removed(projectId, release, deleted.files);
      await files.remove(deleted.files);
      await audit.record({
        projectId,
        actor,
        action: 'sourcemaps.delete',
        target: release,
        details: { files: deleted.files.length, bytes: deleted.bytes },
      });
    },

    async createWriteToken(actor: Actor, projectId: string, name: string): Promise<CreatedWriteToken> {
      await projects.getProjectFor(actor.id, projectId, 'manage');
      if ((await store.countWriteTokens(projectId)) >= MAX_WRITE_TOKENS_PER_PROJECT) {
        throw badRequest(`A project can have at most ${MAX_WRITE_TOKENS_PER_PROJECT} write tokens.`);
      }
      const token = newWriteToken();
      const created = await store.insertWriteToken({
        id: newId(),
        project_id: projectId,
        name,
        token_hash: sha256(token),
        created_by: actor.id,
        created_at: clock().toISOString(),
      });
      await audit.record({ projectId, actor, action: 'write_token.create', target: name });
      return { ...created, token };
    },

    async listWriteTokens(userId: string, projectId: string): Promise<WriteToken[]> {
      await projects.getProjectFor(userId, projectId);
      return store.listWriteTokens(projectId);
    },

    async revokeWriteToken(actor: Actor, projectId: string, tokenId: string): Promise<void> {
      await projects.getProjectFor(actor.id, projectId, 'manage');
      const name = isId(tokenId) ? await store.deleteWriteToken(projectId, tokenId) : null;
      if (name === null) throw notFound('Write token not found.');
      await audit.record({ projectId, actor, action: 'write_token.revoke', target: name });
    },
  };
}

const tooLarge = () =>
  new AppError(
    413,
    'PAYLOAD_TOO_LARGE',
    `A release's source maps may take ${MAX_SOURCEMAP_BYTES_PER_RELEASE / 1024 / 1024} MB at most; nothing of this upload was stored.`,
  );

const accountQuotaReached = (usedBytes: number, uploadBytes: number, limits: SourcemapLimits) =>
  new AppError(
    413,
    'PAYLOAD_TOO_LARGE',
    `The projects of this project's owner hold ${formatBytes(usedBytes)} of source maps together; this upload ` +
      `(${formatBytes(uploadBytes)}) would pass the account's limit of ${formatBytes(limits.accountMaxBytes)}. ` +
      'Nothing of this upload was stored. Make room by deleting the maps of releases no one runs any more (the ' +
      'Source maps card of the SDK screen, or DELETE /api/v1/projects/:id/releases/:release/sourcemaps), in ' +
      "this project or in the owner's other projects, by deleting projects you no longer use (their maps go " +
      "with them) or by uploading only your own bundles' maps, or ask the server's operator to raise the limit.",
  );

const diskReserveReached = (limits: SourcemapLimits) =>
  new AppError(
    413,
    'PAYLOAD_TOO_LARGE',
    `The server is short of disk space: source maps may not take the last ${formatBytes(limits.minFreeDiskBytes)} ` +
      "its events need. Nothing of this upload was stored. Ask the server's operator to free disk space; " +
      'uploads are accepted again once there is room.',
  );

export type SourcemapService = ReturnType<typeof createSourcemapService>;
