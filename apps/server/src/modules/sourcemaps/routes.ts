import fastifyMultipart from '@fastify/multipart';
import {
  CreatedWriteTokenSchema,
  CreateWriteTokenSchema,
  MAX_SOURCEMAP_BYTES_PER_RELEASE,
  SourcemapReleaseListSchema,
  SourcemapUploadResultSchema,
  WriteTokenListSchema,
} from '@polyflow/contracts/sourcemaps';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError } from '../../errors.ts';
import type { RouteDocs } from '../../http/openapi.ts';
import { CONSOLE_BODY_LIMIT, NoBodySchema, parseBody } from '../../http/validation.ts';
import { WRITE_TOKEN_PREFIX } from '../../lib/ids.ts';
import { bearerToken, requireActor, requireUser } from '../auth/guard.ts';
import { invalidSourceMap, parseRelease, type SourcemapService, type UploadedFile } from './service.ts';

const CreateBody = CreateWriteTokenSchema.strict();
/** At most this many files per upload (a bundle's maps; more: upload in several requests). */
const MAX_FILES_PER_UPLOAD = 1000;

const paramsOf = (request: FastifyRequest) =>
  request.params as { id: string; tokenId: string; release: string };

export const SOURCEMAPS_UPLOAD_PATH = '/api/v1/projects/:id/releases/:release/sourcemaps';

const UploadBody = z.object({
  file: z
    .string()
    .describe('One part per map: a file named by the minified file URL plus .map (~/assets/index.js.map).'),
});

const tooLarge = () =>
  new AppError(
    413,
    'PAYLOAD_TOO_LARGE',
    `A release's source maps may take ${MAX_SOURCEMAP_BYTES_PER_RELEASE / 1024 / 1024} MB at most; nothing of this upload was stored.`,
  );

/** Source-map uploads and write tokens under /api/v1/projects/:id (docs/source-maps.md). */
export async function sourcemapRoutes(
  app: FastifyInstance,
  { sourcemaps }: { sourcemaps: SourcemapService },
) {
  await app.register(fastifyMultipart, {
    // A part's file name is the minified file's URL (`~/assets/index.js.map`): kept whole, not cut to
    // its last segment (busboy's default). pathKeyOfUpload refuses `..` and other escapes.
    preservePath: true,
    limits: {
      fileSize: MAX_SOURCEMAP_BYTES_PER_RELEASE,
      files: MAX_FILES_PER_UPLOAD,
      fields: 0,
      parts: MAX_FILES_PER_UPLOAD,
      fieldNameSize: 100,
      headerPairs: 100,
    },
  });
  const doc = (
    summary: string,
    auth: RouteDocs['auth'],
    body: z.ZodType | undefined,
    responses: RouteDocs['responses'],
  ) => ({
    bodyLimit: CONSOLE_BODY_LIMIT,
    config: { docs: { summary, tag: 'Source maps', auth, body, responses } },
  });

  app.post(
    '/projects/:id/releases/:release/sourcemaps',
    {
      config: {
        docs: {
          summary: "Upload a release's source maps",
          description:
            'multipart/form-data, one file part per map, each named by the URL of the minified file it maps plus `.map` (`~/assets/index-3f2a.js.map`; `~` is any host). 50 MB per release; past 100 releases the oldest go. All or nothing. The maps are never served back.',
          tag: 'Source maps',
          auth: 'session-or-write-token',
          body: UploadBody,
          bodyContentTypes: ['multipart/form-data'],
          responses: {
            201: { description: 'Stored: what the release holds now.', schema: SourcemapUploadResultSchema },
          },
        },
      },
    },
    async (request, reply) => {
      const { id, release: rawRelease } = paramsOf(request);
      const token = bearerToken(request);
      // Who uploads is checked before a byte of the body is read.
      const who = await sourcemaps.authorizeUpload(
        token?.startsWith(WRITE_TOKEN_PREFIX)
          ? { kind: 'token', token, ip: request.ip }
          : { kind: 'session', actor: await requireActor(request) },
        id,
      );
      const release = parseRelease(rawRelease);
      if (!request.isMultipart()) {
        throw new AppError(
          415,
          'UNSUPPORTED_MEDIA_TYPE',
          'Send the maps as multipart/form-data, one file part per .map file.',
        );
      }
      const files: UploadedFile[] = [];
      let total = 0;
      for await (const part of request.parts()) {
        if (part.type !== 'file') throw invalidSourceMap('Send only file parts, one per .map file.');
        const content = await part.toBuffer();
        total += content.length;
        if (total > MAX_SOURCEMAP_BYTES_PER_RELEASE) throw tooLarge();
        files.push({ name: part.filename, content });
      }
      return reply.status(201).send(await sourcemaps.upload(who, id, release, files));
    },
  );

  app.get(
    '/projects/:id/releases/sourcemaps',
    doc('List the releases with source maps (never the maps)', 'session', undefined, {
      200: { description: 'Releases with maps, latest upload first.', schema: SourcemapReleaseListSchema },
    }),
    async (request) => {
      const user = await requireUser(request);
      return { releases: await sourcemaps.listReleases(user.id, paramsOf(request).id) };
    },
  );

  app.post(
    '/projects/:id/write-tokens',
    doc('Create a write token (source-map uploads only)', 'session', CreateBody, {
      201: { description: 'The token: shown this once only.', schema: CreatedWriteTokenSchema },
    }),
    async (request, reply) => {
      const actor = await requireActor(request);
      const { name } = parseBody(CreateBody, request.body);
      return reply.status(201).send(await sourcemaps.createWriteToken(actor, paramsOf(request).id, name));
    },
  );

  app.get(
    '/projects/:id/write-tokens',
    doc('List the write tokens (without their secrets)', 'session', undefined, {
      200: { description: "The project's write tokens.", schema: WriteTokenListSchema },
    }),
    async (request) => {
      const user = await requireUser(request);
      return { writeTokens: await sourcemaps.listWriteTokens(user.id, paramsOf(request).id) };
    },
  );

  app.delete(
    '/projects/:id/write-tokens/:tokenId',
    doc('Revoke a write token', 'session', NoBodySchema, {
      204: { description: 'Revoked: the token stops working at once.' },
    }),
    async (request, reply) => {
      const actor = await requireActor(request);
      parseBody(NoBodySchema, request.body);
      const { id, tokenId } = paramsOf(request);
      await sourcemaps.revokeWriteToken(actor, id, tokenId);
      return reply.status(204).send();
    },
  );
}
