import { z } from 'zod';
import { LABEL_MESSAGE, LABEL_PATTERN, labelText } from './text.ts';

/** A release name: what the SDK's `release` option and the upload route accept (docs/releases.md). */
export const MAX_RELEASE_LENGTH = 64;
export const ReleaseSchema = labelText(MAX_RELEASE_LENGTH).min(1);

/** Per release: the uploaded maps together (docs/source-maps.md). */
export const MAX_SOURCEMAP_BYTES_PER_RELEASE = 50 * 1024 * 1024;
/** Per project: releases with maps; the oldest upload goes when one more arrives. */
export const MAX_SOURCEMAP_RELEASES = 100;
/** What every write token starts with. */
export const WRITE_TOKEN_PREFIX = 'pfw_';

/** Write tokens: project-scoped credentials that only upload source maps (CI pipelines). */
export const CreateWriteTokenSchema = z.object({
  name: z.string().trim().min(1).max(100).regex(LABEL_PATTERN, LABEL_MESSAGE),
});
export const WriteTokenSchema = z.object({ id: z.string(), name: z.string(), createdAt: z.string() });
export type WriteToken = z.infer<typeof WriteTokenSchema>;
/** The answer to a creation: the only time the token itself is shown. */
export const CreatedWriteTokenSchema = WriteTokenSchema.extend({ token: z.string() });
export type CreatedWriteToken = z.infer<typeof CreatedWriteTokenSchema>;
export const WriteTokenListSchema = z.object({ writeTokens: z.array(WriteTokenSchema) });

/** One stored map: the URL of the minified file it maps (`~/assets/index.js`) and its size. */
export const SourcemapFileSchema = z.object({ url: z.string(), bytes: z.number() });

/** `POST /projects/:id/releases/:release/sourcemaps`: what the release holds after the upload. */
export const SourcemapUploadResultSchema = z.object({
  release: z.string(),
  uploaded: z.array(SourcemapFileSchema),
  releaseBytes: z.number(),
  /** Releases whose maps were deleted to stay within MAX_SOURCEMAP_RELEASES (oldest first). */
  deletedReleases: z.array(z.string()),
});
export type SourcemapUploadResult = z.infer<typeof SourcemapUploadResultSchema>;

/** One release with maps: their total size, how many there are, and when the release's last upload was. */
export const SourcemapReleaseSchema = z.object({
  release: z.string(),
  bytes: z.number(),
  files: z.number(),
  updatedAt: z.string(),
});
export type SourcemapRelease = z.infer<typeof SourcemapReleaseSchema>;

/**
 * The maps of every project the project's owner owns together, against the account's limit
 * (SOURCEMAP_ACCOUNT_MAX_MB): past it, uploads are refused with 413.
 */
export const SourcemapAccountUsageSchema = z.object({ bytes: z.number(), maxBytes: z.number() });
export type SourcemapAccountUsage = z.infer<typeof SourcemapAccountUsageSchema>;

/** `GET /projects/:id/releases/sourcemaps`: releases with maps, newest upload first (never the maps). */
export const SourcemapReleaseListSchema = z.object({
  releases: z.array(SourcemapReleaseSchema),
  account: SourcemapAccountUsageSchema,
});
export type SourcemapReleaseList = z.infer<typeof SourcemapReleaseListSchema>;
