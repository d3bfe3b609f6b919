import { randomUUID } from 'node:crypto';
import type { IResolvers } from 'mercurius';
import type { z } from 'zod';
import { badRequest, notFound, zodIssues } from '../../../errors.ts';
import type { GraphqlContext, GraphqlModule } from '../../../graphql/module.ts';
import type { EventService } from '../../ingest-log/service.ts';
import type { AdmissionPart, IngestAccess } from '../admission.ts';
import type { IngestPart, RequestFacts } from '../ingest.ts';
import { toBig } from '../storable-numbers.ts';
import {
  ContextEventSchema,
  ErrorEventSchema,
  SdkErrorSchema,
  TxRequestSchema,
  type TxStatus,
} from './input-schemas.ts';
import { legacyRow, stageOf } from './map-legacy.ts';
import { legacyTypeDefs } from './type-defs.ts';

type Answer = { id: string; tracker: { userId: string; sessionId: string } };

function parse<T extends z.ZodType>(schema: T, input: unknown): z.infer<T> {
  const result = schema.safeParse(input);
  if (!result.success) {
    const issues = zodIssues(result.error).map((issue) => ({ ...issue, path: `event.${issue.path}` }));
    throw badRequest(`Invalid event: ${issues[0]?.path}: ${issues[0]?.message}.`, issues.slice(0, 20));
  }
  return result.data;
}

/** `createUserLandedEvent` & co. of `@polyflow/sdk@1.0.25`, stored in the same events table. */
export function legacyIngestionGraphql({
  admission,
  ingest,
  log,
}: {
  admission: Pick<AdmissionPart, 'admitEvent'>;
  ingest: Pick<IngestPart, 'legacyFacts' | 'commitRows'>;
  log: Pick<EventService, 'findTxEvent'>;
}): GraphqlModule {
  /**
   * Same admission as `POST /api/v1/events` (admission.ts): the key in X-API-KEY, the Origin on its
   * whitelist, the rate, the backlog's room (ADR 034).
   */
  async function authorize(context: GraphqlContext): Promise<IngestAccess> {
    const { request, reply } = context;
    reply.header('vary', 'Origin');
    const origin = request.headers.origin;
    const admitted = await admission.admitEvent(context.apiKey, origin);
    if (!admitted.admitted) {
      if (admitted.pageMayRead && origin) reply.header('access-control-allow-origin', origin);
      throw admitted.refusal;
    }
    reply.header('access-control-allow-origin', origin);
    return admitted.access;
  }

  function client(context: GraphqlContext) {
    return { userAgent: context.request.headers['user-agent'], ip: context.request.ip };
  }

  /** Validates, maps and commits one event; a bot's event is answered like any other but not stored. */
  async function store(
    context: GraphqlContext,
    access: IngestAccess,
    tracker: { userId: string; sessionId: string },
    build: (facts: RequestFacts, id: string) => Parameters<IngestPart['commitRows']>[1][number],
  ): Promise<Answer> {
    const id = randomUUID();
    const facts = ingest.legacyFacts(access, client(context));
    if (facts) await ingest.commitRows(access, [build(facts, id)]);
    return { id, tracker: { userId: tracker.userId, sessionId: tracker.sessionId } };
  }

  const resolvers: IResolvers = {
    Mutation: {
      async createUserLandedEvent(_root: unknown, args: { event: unknown }, context: GraphqlContext) {
        const access = await authorize(context);
        const event = parse(ContextEventSchema, args.event);
        return store(context, access, event.tracker, (facts, id) => legacyRow(id, 'page_view', event, facts));
      },

      async createWalletConnectedEvent(_root: unknown, args: { event: unknown }, context: GraphqlContext) {
        const access = await authorize(context);
        const event = parse(ContextEventSchema, args.event);
        return store(context, access, event.tracker, (facts, id) =>
          legacyRow(id, 'wallet_connected', event, facts),
        );
      },

      async createTxRequestEvent(_root: unknown, args: { event: unknown }, context: GraphqlContext) {
        const access = await authorize(context);
        const event = parse(TxRequestSchema, args.event);
        return store(context, access, event.tracker, (facts, id) => {
          const { tx } = event;
          const row = legacyRow(id, 'tx', event, facts);
          row.tx_id = id;
          row.tx_stage = stageOf(tx.status, tx.hash !== undefined);
          row.tx_hash = tx.hash ?? null;
          row.tx_from = tx.from;
          row.tx_to = tx.to ?? null;
          row.tx_value = toBig(tx.value, 'event.tx.value');
          const hasCalldata = tx.input !== undefined && tx.input.length >= 10;
          row.selector = hasCalldata ? (tx.input as string).slice(0, 10) : null;
          row.tx_kind = hasCalldata ? 'contract' : 'coin';
          row.gas_limit = toBig(tx.gas, 'event.tx.gas');
          row.gas_price = toBig(tx.gasPrice, 'event.tx.gasPrice');
          row.max_fee_per_gas = toBig(tx.maxFeePerGas, 'event.tx.maxFeePerGas');
          row.max_priority_fee_per_gas = toBig(tx.maxPriorityFeePerGas, 'event.tx.maxPriorityFeePerGas');
          row.nonce = toBig(tx.nonce, 'event.tx.nonce');
          return row;
        });
      },

      async createErrorEvent(_root: unknown, args: { event: unknown }, context: GraphqlContext) {
        const access = await authorize(context);
        const event = parse(ErrorEventSchema, args.event);
        return store(context, access, event.tracker, (facts, id) => {
          const row = legacyRow(id, 'error', event, facts);
          const [message, ...rest] = event.errors;
          row.error_source = 'window';
          row.error_message = message ?? '';
          row.error_stack = rest.length > 0 ? rest.join('\n') : null;
          return row;
        });
      },

      async createSdkErrorEvent(_root: unknown, args: { event: unknown }, context: GraphqlContext) {
        const access = await authorize(context);
        const event = parse(SdkErrorSchema, args.event);
        return store(context, access, event.tracker, (facts, id) => {
          const row = legacyRow(id, 'sdk_error', { tracker: event.tracker }, facts);
          row.error_source = 'sdk';
          row.error_message = event.metadata ?? '';
          return row;
        });
      },

      async updateTxRequestEventTxStatus(
        _root: unknown,
        args: { id: string; newStatus: TxStatus },
        context: GraphqlContext,
      ) {
        const access = await authorize(context);
        const original = await log.findTxEvent(access.projectId, args.id);
        if (original?.type !== 'tx') throw notFound('No transaction request with this id.');
        const tracker = { userId: original.user_id, sessionId: original.session_id };
        await store(context, access, tracker, (facts, id) => {
          const row = legacyRow(
            id,
            'tx',
            { tracker: { ...tracker, eventTracker: 'TX_REQUEST', sdkVersion: undefined } },
            facts,
          );
          row.tx_id = original.tx_id ?? original.id;
          row.tx_stage = stageOf(args.newStatus, original.tx_hash !== null);
          row.tx_hash = original.tx_hash;
          row.tx_from = original.tx_from;
          row.tx_to = original.tx_to;
          row.tx_kind = original.tx_kind;
          row.chain_id = original.chain_id;
          return row;
        });
        // The SDK reads only tracker.userId; the id is the request's it updated.
        return { id: original.id, tracker };
      },
    },
  };
  return { typeDefs: legacyTypeDefs, resolvers };
}
