import type { ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { type AnalyticsFilterKey, AnalyticsFilterKeys } from '@polyflow/contracts/analytics';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError, zodIssues } from '../../errors.ts';
import { readerUserId } from '../../reading/reader.ts';
import { parseInstant } from '../../reading/time-range.ts';
import { requireReader } from '../read-tokens/guard.ts';
import { CONTENT_TYPES } from './event-formats.ts';
import type { EventExportService, ExportRequest } from './service.ts';
import { TRANSACTIONS_CSV_HEADER } from './transaction-csv.ts';

const ExportQuery = z.strictObject({
  from: z.string().max(64),
  to: z.string().max(64),
  format: z.enum(['ndjson', 'csv']).default('ndjson'),
  localTime: z
    .enum(['true', 'false'])
    .default('false')
    .describe(
      "`true` adds a last column, `local_time`: the event's time in the project's time zone, ISO 8601 with its offset.",
    ),
});

const invalid = (message: string, details?: { path: string; message: string }[]) =>
  new AppError(400, 'INVALID_REQUEST', message, details);

function parseQuery(query: unknown): ExportRequest {
  const parsed = ExportQuery.safeParse(query);
  if (!parsed.success) {
    throw invalid(
      'Invalid query: from and to (ISO 8601) are required; format is ndjson or csv; localTime is true or false.',
      zodIssues(parsed.error),
    );
  }
  const instant = (text: string, field: 'from' | 'to') => {
    try {
      return parseInstant(text, field);
    } catch (error) {
      throw invalid((error as Error).message, [{ path: field, message: 'expected an ISO 8601 time' }]);
    }
  };
  const fromMs = instant(parsed.data.from, 'from');
  const toMs = instant(parsed.data.to, 'to');
  if (fromMs >= toMs)
    throw invalid('from must be before to.', [{ path: 'from', message: 'must be before to' }]);
  return { fromMs, toMs, format: parsed.data.format, localTime: parsed.data.localTime === 'true' };
}

/**
 * One Analytics filter list in a query: the parameter once per value (`countries=DE&countries=FR`). Its
 * values are checked as GraphQL's `filters` are (AnalyticsFiltersSchema, by the analytics service).
 */
const filterList = (key: AnalyticsFilterKey) =>
  z
    .union([z.string(), z.array(z.string())])
    .optional()
    .describe(
      `The Analytics filter \`${key}\`: the parameter once per value; at most 100 values of 1–256 characters${key === 'chains' ? ' (chain ids: positive integers)' : ''}.`,
    );

const TransactionsQuery = z.strictObject({
  from: z.string().max(64).optional(),
  to: z.string().max(64).optional(),
  search: z.string().max(100).optional(),
  status: z.string().max(16).optional(),
  type: z.string().max(16).optional(),
  contract: z.string().max(64).optional(),
  selector: z.string().max(16).optional(),
  ...(Object.fromEntries(AnalyticsFilterKeys.map((key) => [key, filterList(key)])) as Record<
    AnalyticsFilterKey,
    ReturnType<typeof filterList>
  >),
});

/** The query's filter lists as GraphQL's `filters` argument: arrays, chain ids as numbers where they are. */
function filtersOfQuery(query: z.infer<typeof TransactionsQuery>): Record<string, unknown[]> {
  const filters: Record<string, unknown[]> = {};
  for (const key of AnalyticsFilterKeys) {
    const given = query[key];
    if (given === undefined) continue;
    const values = Array.isArray(given) ? given : [given];
    filters[key] = key === 'chains' ? values.map((v) => (/^\d{1,16}$/.test(v) ? Number(v) : v)) : values;
  }
  return filters;
}

/**
 * Ends a download whose client has taken nothing of what it was sent for `stallMs` (the socket's buffers
 * full, no drain since): its export slot is given back on close. A client that opened exports and stopped
 * reading kept the node's slots, and every other tenant's exports were refused, for as long as it liked.
 */
function endWhenStalled(response: ServerResponse, stallMs: number): void {
  let progressAt = Date.now();
  const onDrain = () => {
    progressAt = Date.now();
  };
  const timer = setInterval(
    () => {
      if (!response.writableNeedDrain) progressAt = Date.now();
      else if (Date.now() - progressAt >= stallMs) response.destroy();
    },
    Math.max(50, Math.min(5_000, stallMs / 4)),
  );
  timer.unref();
  response.on('drain', onDrain);
  response.once('close', () => {
    clearInterval(timer);
    response.off('drain', onDrain);
  });
}

/**
 * `GET /api/v1/projects/:id/export/events?from&to&format&localTime`: the owner (session) or a read token of the
 * project. The body streams a page of rows at a time, pulled only as fast as the client reads.
 */
export async function eventExportRoutes(app: FastifyInstance, { exports }: { exports: EventExportService }) {
  app.get(
    '/projects/:id/export/events',
    {
      config: {
        docs: {
          summary: 'Export every event of a time range (NDJSON or CSV)',
          description:
            "Streams every stored event with `from` ≤ time < `to`; see Data access and privacy for the columns. With `localTime=true` each event also has `local_time`, its time in the project's time zone.",
          tag: 'Data access',
          auth: 'session-or-read-token',
          query: ExportQuery,
          responses: {
            200: {
              description: 'The events as a download: NDJSON (one event per line) or CSV, by `format`.',
              contentTypes: [CONTENT_TYPES.ndjson, CONTENT_TYPES.csv],
            },
          },
        },
      },
    },
    async (request: FastifyRequest, reply) => {
      const reader = await requireReader(request);
      const projectId = (request.params as { id: string }).id;
      const userId = readerUserId(reader, projectId);
      const input = parseQuery(request.query);
      const { filename, chunks, release } = await exports.exportEvents(userId, projectId, input);
      // The slot is held until the response is over: sent, failed, abandoned or stalled by the client.
      reply.raw.once('close', release);
      if (reply.raw.destroyed) release();
      else endWhenStalled(reply.raw, exports.stallMs);
      return reply
        .header('content-type', CONTENT_TYPES[input.format])
        .header('content-disposition', `attachment; filename="${filename}"`)
        .header('cache-control', 'no-store')
        .send(Readable.from(chunks, { highWaterMark: 1 }));
    },
  );

  app.get(
    '/projects/:id/transactions.csv',
    {
      config: {
        docs: {
          summary: 'The Transaction History as CSV, with its search and filters',
          description:
            'Streams every transaction requested in [`from`, `to`) that the search and filters keep, newest ' +
            'first, as the history lists them (open ends as the dashboards: all time). `search`: a hash or ' +
            'wallet, or its first 6 or more hex digits; `status`, `type` (Coin or Contract), `contract`, ' +
            '`selector`; the Analytics filters (`countries`, `browsers`, `oses`, `devices`, `walletProviders`, ' +
            '`chains`, `sources`, `mediums`, `campaigns`, `pages`, `referrers`) keep the transactions whose ' +
            "request's session passes them, as on the Analytics screen. Columns: " +
            TRANSACTIONS_CSV_HEADER.trim() +
            '. Counts against the export limit.',
          tag: 'Data access',
          auth: 'session-or-read-token',
          query: TransactionsQuery,
          responses: {
            200: { description: 'The transactions as a CSV download.', contentTypes: [CONTENT_TYPES.csv] },
          },
        },
      },
    },
    async (request: FastifyRequest, reply) => {
      const reader = await requireReader(request);
      const projectId = (request.params as { id: string }).id;
      const userId = readerUserId(reader, projectId);
      const parsed = TransactionsQuery.safeParse(request.query);
      if (!parsed.success)
        throw invalid(
          'Invalid query: from, to, search, status, type, contract and selector, each once, and the Analytics filter lists.',
          zodIssues(parsed.error),
        );
      const { from, to, search, status, type, contract, selector } = parsed.data;
      const { filename, chunks, release } = await exports.exportTransactions(userId, projectId, {
        ...{ from, to, search, status, type, contract, selector },
        filters: filtersOfQuery(parsed.data),
      });
      reply.raw.once('close', release);
      if (reply.raw.destroyed) release();
      else endWhenStalled(reply.raw, exports.stallMs);
      return reply
        .header('content-type', CONTENT_TYPES.csv)
        .header('content-disposition', `attachment; filename="${filename}"`)
        .header('cache-control', 'no-store')
        .send(Readable.from(chunks, { highWaterMark: 1 }));
    },
  );
}
