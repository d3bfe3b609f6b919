import type { FastifyMultipartBaseOptions } from '@fastify/multipart';
import { MAX_SOURCEMAP_BYTES_PER_RELEASE } from '@polyflow/contracts/sourcemaps';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../errors.ts';
import { invalidSourceMap, type UploadedFile } from './service.ts';

/** At most this many files per upload (a bundle's maps; more: upload in several requests). */
const MAX_FILES_PER_UPLOAD = 1000;

/**
 * What @fastify/multipart (busboy) may read of an upload. One text part is let through (its value cut
 * at 1 KB) so that the route sees it and says what is wrong with it; busboy's own refusal of a text part
 * is a 413, as if the upload were too large.
 */
export const UPLOAD_LIMITS: NonNullable<FastifyMultipartBaseOptions['limits']> = {
  fileSize: MAX_SOURCEMAP_BYTES_PER_RELEASE,
  files: MAX_FILES_PER_UPLOAD,
  fields: 1,
  fieldSize: 1024,
  parts: MAX_FILES_PER_UPLOAD,
  fieldNameSize: 100,
  headerPairs: 100,
};

const tooLarge = () =>
  new AppError(
    413,
    'PAYLOAD_TOO_LARGE',
    `A release's source maps may take ${MAX_SOURCEMAP_BYTES_PER_RELEASE / 1024 / 1024} MB at most; nothing of this upload was stored.`,
  );
const tooManyFiles = () =>
  new AppError(
    413,
    'PAYLOAD_TOO_LARGE',
    `At most ${MAX_FILES_PER_UPLOAD} files an upload; send the rest in another. Nothing of this upload was stored.`,
  );
const notAFilePart = () => invalidSourceMap('Send only file parts, one per .map file.');
const malformed = () =>
  invalidSourceMap(
    'The body is not well-formed multipart/form-data (a boundary in Content-Type, every part complete, ' +
      'the closing boundary at the end); nothing of this upload was stored.',
  );

/**
 * What an error while reading the parts means for the client. Busboy's and the streams' own errors
 * ("Boundary not found", "Part terminated early", "Premature close") all say the body is not the
 * multipart it claims to be; only the plugin's own faults (a 5xx) stay unexpected.
 */
function uploadError(error: unknown): unknown {
  if (error instanceof AppError) return error;
  const { code, statusCode } = error as { code?: unknown; statusCode?: unknown };
  switch (code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return tooLarge();
    case 'FST_FILES_LIMIT':
    case 'FST_PARTS_LIMIT':
      return tooManyFiles();
    // A second text part, or a text part declared as JSON that is not.
    case 'FST_FIELDS_LIMIT':
    case 'FST_INVALID_JSON_FIELD_ERROR':
      return notAFilePart();
    case 'FST_PROTO_VIOLATION':
      return invalidSourceMap(
        'A part may not be named __proto__, constructor or the like; name each part file.',
      );
  }
  if (typeof statusCode === 'number' && statusCode >= 500) return error;
  return malformed();
}

const BOUNDARY = /;\s*boundary\s*=\s*(?:"([^"]+)"|([^;\s]+))/i;

/**
 * Watches the body for multipart's close delimiter (CRLF `--boundary--`, RFC 2046), which no part's content
 * can hold. @fastify/multipart ends the parts quietly when the body stops between two parts (busboy's
 * "Unexpected end of multipart data"): without this, the parts before the cut would be stored.
 */
function watchCloseDelimiter(request: FastifyRequest): () => boolean {
  const match = BOUNDARY.exec(request.headers['content-type'] ?? '');
  const boundary = match?.[1] ?? match?.[2];
  if (boundary === undefined) return () => false;
  const delimiter = Buffer.from(`\r\n--${boundary}--`);
  let isSeen = false;
  const keep = delimiter.length - 1;
  // The chunk's start with the end of the chunks before: a delimiter split across two chunks.
  let tail = Buffer.alloc(0);
  const watch = (chunk: Buffer) => {
    isSeen = chunk.includes(delimiter) || Buffer.concat([tail, chunk.subarray(0, keep)]).includes(delimiter);
    if (isSeen) request.raw.off('data', watch);
    else tail = Buffer.concat([tail, chunk.subarray(-keep)]).subarray(-keep);
  };
  request.raw.on('data', watch);
  return () => isSeen;
}

/**
 * Reads every part of a source-map upload into memory (50 MB at most), before anything is stored: a body
 * refused halfway through, or cut off between two parts, leaves nothing behind.
 */
export async function readUploadedMaps(request: FastifyRequest): Promise<UploadedFile[]> {
  const files: UploadedFile[] = [];
  let total = 0;
  // Listening from the same tick as the parts' reader (the iterator pipes the body into busboy on its
  // first step, synchronously), so both see every chunk.
  const isClosed = watchCloseDelimiter(request);
  try {
    for await (const part of request.parts()) {
      if (part.type !== 'file') throw notAFilePart();
      const content = await part.toBuffer();
      total += content.length;
      if (total > MAX_SOURCEMAP_BYTES_PER_RELEASE) throw tooLarge();
      // A file part without a `filename` (a Content-Type makes busboy take it for a file) has no name: it is
      // refused by its name like any other badly named map, not a TypeError and a 500.
      files.push({ name: part.filename ?? '', content });
    }
  } catch (error) {
    throw uploadError(error);
  }
  if (!isClosed()) throw malformed();
  return files;
}
