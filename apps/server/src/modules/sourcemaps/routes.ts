import fastifyMultipart from '@fastify/multipart';
import {
  CreatedWriteTokenSchema,
  CreateWriteTokenSchema,
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
import { parseRelease, type SourcemapService } from './service.ts';
import { readUploadedMaps, UPLOAD_LIMITS } from './upload-parts.ts';

const CreateBody = CreateWriteTokenSchema.strict();

const paramsOf = (request: FastifyRequest) =>
  request.params as { id: string; tokenId: string; release: string };

export const SOURCEMAPS_UPLOAD_PATH = '/api/v1/projects/:id/releases/:release/sourcemaps';

const UploadBody = z.object({
  file: z
    .string()
    .describe('One part per map: a file named by the minified file URL plus .map (~/assets/index.js.map).'),
});

/** Source-map uploads and write tokens under /api/v1/projects/:id (docs/source-maps.md). */
export async function sourcemapRoutes(
  app: FastifyInstance,
  { sourcemaps }: { sourcemaps: SourcemapService },
) {
  await app.register(fastifyMultipart, {
    // A part's file name is the minified file's URL (`~/assets/index.js.map`): kept whole, not cut to
    // its last segment (busboy's default). pathKeyOfUpload refuses `..` and other escapes.
    preservePath: true,
    limits: UPLOAD_LIMITS,
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
            'multipart/form-data, one file part per map, each named by the URL of the minified file it maps plus `.map` (`~/assets/index-3f2a.js.map`; `~` is any host). 50 MB per release; past 100 releases the oldest go. By default 5 GB across the projects of one owner, and 1 GB left free on the disk of the server (413 PAYLOAD_TOO_LARGE past either). All or nothing. The maps are never served back.',
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
      const files = await readUploadedMaps(request);
      return reply.status(201).send(await sourcemaps.upload(who, id, release, files));
    },
  );

  app.get(
    '/projects/:id/releases/sourcemaps',
    doc('List the releases with source maps (never the maps)', 'session', undefined, {
      200: {
        description:
          "Releases with maps, latest upload first, and the maps of all the projects of the project's owner against the account's limit.",
        schema: SourcemapReleaseListSchema,
      },
    }),
    async (request) => {
      const user = await requireUser(request);
      return sourcemaps.releaseList(user.id, paramsOf(request).id);
    },
  );

  app.delete(
    '/projects/:id/releases/:release/sourcemaps',
    doc("Delete a release's source maps", 'session', NoBodySchema, {
      204: {
        description:
          "Deleted, files included: the release's errors are no longer mapped, and its bytes no longer count against the account's limit.",
      },
    }),
    async (request, reply) => {
      const actor = await requireActor(request);
      parseBody(NoBodySchema, request.body);
      const { id, release } = paramsOf(request);
      await sourcemaps.deleteRelease(actor, id, release);
      return reply.status(204).send();
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
