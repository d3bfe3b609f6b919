import { createHmac, randomBytes } from 'node:crypto';
import {
  type AlertChannel,
  type AlertDelivery,
  type AlertNotice,
  AlertNoticeSchema,
  type CreateAlertChannel,
  type CreatedAlertChannel,
  MAX_ALERT_CHANNELS_PER_PROJECT,
} from '@polyflow/contracts/alert-channels';
import type { FastifyBaseLogger } from 'fastify';
import { AppError, badRequest, notFound } from '../../errors.ts';
import type { Actor, AuditRecorder, ProjectAccess } from '../../lib/access.ts';
import type { Clock } from '../../lib/clock.ts';
import { isId, newId } from '../../lib/ids.ts';
import { checkUrlHost, RefusedAddressError } from './address-guard.ts';
import { discordMessage, emailMessage, slackMessage } from './formats.ts';
import { type PostResult, postBounded } from './sender.ts';
import type { AlertChannelStore, ClaimedDelivery } from './store.ts';

export type AlertChannelService = ReturnType<typeof createAlertChannelService>;

/** What an email channel needs of the mail module: the durable outbox. */
export type AlertMailer = { enqueue(email: { to: string; subject: string; text: string }): Promise<void> };

export type AlertChannelServiceDeps = {
  store: AlertChannelStore;
  projects: ProjectAccess;
  audit: AuditRecorder;
  mail: AlertMailer;
  clock: Clock;
  logger: FastifyBaseLogger;
  /** The console's address, for the link of a test notice. */
  publicUrl: string;
  /** WEBHOOK_ALLOW_PRIVATE_NETWORKS: loopback and private addresses may be reached (tests, LAN receivers). */
  allowPrivateNetworks: boolean;
  /** First retry after this long, doubling up to `maxRetryDelayMs` (ALERT_RETRY_BASE_SECONDS; tests: ms). */
  retryBaseMs?: number;
  maxRetryDelayMs?: number;
  /** Deliveries under way at once on this node. */
  concurrency?: number;
  /**
   * Of those, at most this many for one project (default half, at least 1): a project whose receivers all
   * hang holds these, and the other projects' notices go out through the rest.
   */
  concurrencyPerProject?: number;
  /** How often the queue is looked at for retries that came due and work other nodes enqueued. */
  pollIntervalMs?: number;
  /** Each delivery's bound (tests shorten it). */
  timeoutMs?: number;
  /**
   * This node, the same across its restarts (app.ts: its host name and DATA_DIR): claims are stamped with
   * it, so that a node back from a kill -9 delivers at once what it held, without waiting for the lease.
   */
  nodeId: string;
  /** Told of each attempt's outcome (the Prometheus counter). */
  onAttempt?: (outcome: 'delivered' | 'retrying' | 'gave_up') => void;
  /** The project's time zone, for the times in readable messages (default UTC). */
  timeZoneOf?: (projectId: string) => Promise<string>;
};

/** How many times each value occurs. */
function countsOf(values: Iterable<string>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return counts;
}

/** A notice is retried for a day, then given up. */
export const DELIVERY_LIFETIME_MS = 24 * 60 * 60 * 1000;
/** Longer than any delivery (10 s): a node that died mid-delivery frees it after this. */
const CLAIM_MS = 60_000;
/** Finished deliveries and their attempts are kept this long in the log. */
const KEEP_FINISHED_MS = 30 * 24 * 60 * 60 * 1000;

/** `Polyflow-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`. */
export function signatureHeader(secret: string, body: string, unixSeconds: number): string {
  const mac = createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
  return `t=${unixSeconds},v1=${mac}`;
}

/** A webhook's signing secret: 32 random bytes, shown once. */
const newWebhookSecret = () => `whsec_${randomBytes(32).toString('base64url')}`;

export const addressRefused = (message: string) => new AppError(400, 'WEBHOOK_ADDRESS_REFUSED', message);

/**
 * Alert channels and the delivery of notices (issue 27, ADR 062). Admins and the owner create and delete
 * channels and send test notices; every member lists them and reads their delivery log. Notices are
 * stored (one delivery per channel) before `enqueueNotice` returns, then delivered in the background by
 * whichever node claims them, at least once, retried with back-off for 24 hours.
 */
export function createAlertChannelService({
  store,
  projects,
  audit,
  mail,
  clock,
  logger,
  publicUrl,
  allowPrivateNetworks,
  retryBaseMs = 30_000,
  maxRetryDelayMs = 60 * 60_000,
  concurrency = 4,
  concurrencyPerProject = Math.max(1, Math.floor(concurrency / 2)),
  pollIntervalMs = 2_000,
  timeoutMs,
  nodeId,
  onAttempt = () => undefined,
  timeZoneOf = async () => 'UTC',
}: AlertChannelServiceDeps) {
  /** Deliveries this node holds (claimed, under way): given back on close. */
  const inFlight = new Map<string, Promise<void>>();
  /** The channel of each delivery under way: one at a time per channel on this node. */
  const busyChannels = new Map<string, string>();
  /** The project of each delivery under way: at most `concurrencyPerProject` per project on this node. */
  const busyProjects = new Map<string, string>();
  let isClosed = false;
  let claiming: Promise<number> | undefined;
  let claimAgain = false;
  let lastPurge = 0;
  /** This node's own retries are tried when due, not at the next poll (other nodes' at their poll). */
  const retryTimers = new Set<NodeJS.Timeout>();

  async function channelOf(projectId: string, channelId: string) {
    const channel = isId(channelId) ? await store.find(projectId, channelId) : null;
    if (!channel) throw notFound('Alert channel not found.');
    return channel;
  }

  async function post(delivery: ClaimedDelivery, body: string, headers: Record<string, string>) {
    return postBounded({
      url: delivery.channel.url ?? '',
      body,
      headers: { 'content-type': 'application/json', 'user-agent': 'Polyflow-Alerts/1', ...headers },
      allowPrivateNetworks,
      timeoutMs,
    });
  }

  /** One attempt at one delivery; what happened, as the log shows it. */
  async function attempt(delivery: ClaimedDelivery): Promise<PostResult> {
    const { channel } = delivery;
    const notice = JSON.parse(delivery.notice) as AlertNotice;
    switch (channel.type) {
      case 'webhook': {
        const t = Math.floor(clock().getTime() / 1000);
        return post(delivery, delivery.notice, {
          'polyflow-delivery': delivery.noticeId,
          'polyflow-signature': signatureHeader(channel.secret ?? '', delivery.notice, t),
        });
      }
      case 'slack':
        return post(delivery, JSON.stringify(slackMessage(notice, await timeZoneOf(notice.project.id))), {});
      case 'discord':
        return post(
          delivery,
          JSON.stringify(discordMessage(notice, await timeZoneOf(notice.project.id))),
          {},
        );
      case 'email': {
        const started = performance.now();
        // Members who left the project since the channel was saved get nothing.
        const members = await store.membersAmong(
          channel.project_id,
          JSON.parse(channel.member_ids) as string[],
        );
        if (members.length === 0) {
          return { statusCode: null, latencyMs: 0, error: 'none of its members is in the project any more' };
        }
        const message = emailMessage(notice, await timeZoneOf(notice.project.id));
        // Into the outbox (durable, retried as every email): from here the mail module delivers.
        for (const member of members) await mail.enqueue({ to: member.email, ...message });
        return { statusCode: null, latencyMs: Math.round(performance.now() - started), error: null };
      }
    }
  }

  async function deliver(delivery: ClaimedDelivery): Promise<void> {
    let result: PostResult;
    try {
      result = await attempt(delivery);
    } catch (error) {
      result = {
        statusCode: null,
        latencyMs: 0,
        error: error instanceof Error ? error.message : String(error),
      };
    }
    // A delivery interrupted by shutdown is given back (close), not logged as an attempt.
    if (isClosed) return;
    const now = clock();
    const delivered = result.error === null;
    const record = {
      id: newId(),
      deliveryId: delivery.id,
      channelId: delivery.channel.id,
      attempt: delivery.attempts,
      at: now.toISOString(),
      statusCode: result.statusCode,
      latencyMs: result.latencyMs,
      error: result.error,
      delivered,
    };
    if (delivered) {
      await store.recordAttempt(record, { state: 'delivered' });
      onAttempt('delivered');
      return;
    }
    if (now.getTime() >= Date.parse(delivery.expiresAt)) {
      logger.warn(
        { channelId: delivery.channel.id, noticeId: delivery.noticeId, attempts: delivery.attempts },
        'alert notice not delivered; gave up after 24 hours of retries',
      );
      await store.recordAttempt(
        { ...record, error: `${result.error}; gave up after 24 hours of retries` },
        { state: 'failed' },
      );
      onAttempt('gave_up');
      return;
    }
    const delay = Math.min(maxRetryDelayMs, retryBaseMs * 2 ** (delivery.attempts - 1));
    await store.recordAttempt(record, {
      state: 'pending',
      retryAt: new Date(now.getTime() + delay).toISOString(),
    });
    onAttempt('retrying');
    if (delay < pollIntervalMs) {
      const retry = setTimeout(() => {
        retryTimers.delete(retry);
        void pump();
      }, delay);
      retry.unref();
      retryTimers.add(retry);
    }
  }

  /** Claims what this node has room for and starts it; the number claimed. One claim at a time. */
  function pump(): Promise<number> {
    if (isClosed) return Promise.resolve(0);
    if (claiming) {
      // A slot freed or a notice came during this claim: look again once it is done.
      claimAgain = true;
      return claiming;
    }
    claimAgain = false;
    claiming = (async () => {
      const now = clock();
      const rows = await store.claimDue(
        nodeId,
        now.toISOString(),
        new Date(now.getTime() + CLAIM_MS).toISOString(),
        concurrency - inFlight.size,
        new Set(busyChannels.values()),
        { busyByProject: countsOf(busyProjects.values()), perProject: concurrencyPerProject },
      );
      for (const row of rows) {
        const running = deliver(row)
          .catch((error: unknown) =>
            logger.error({ err: error, deliveryId: row.id }, 'an alert delivery could not be recorded'),
          )
          .finally(() => {
            inFlight.delete(row.id);
            busyChannels.delete(row.id);
            busyProjects.delete(row.id);
            void pump();
          });
        inFlight.set(row.id, running);
        busyChannels.set(row.id, row.channel.id);
        busyProjects.set(row.id, row.channel.project_id);
      }
      return rows.length;
    })()
      .catch((error: unknown) => {
        if (!isClosed) logger.error({ err: error }, 'the alert delivery queue could not be read; retrying');
        return 0;
      })
      .finally(() => {
        claiming = undefined;
        if (claimAgain) void pump();
      });
    return claiming;
  }

  async function purgeOld(): Promise<void> {
    const now = clock().getTime();
    if (now - lastPurge < 60 * 60_000) return;
    lastPurge = now;
    await store.purgeFinishedBefore(new Date(now - KEEP_FINISHED_MS).toISOString());
  }

  const timer = setInterval(() => {
    void pump();
    void purgeOld().catch(() => undefined);
  }, pollIntervalMs);
  timer.unref();
  // Deliveries left by an earlier run (a receiver was down, or the process died holding them) go out now.
  const started = store
    .releaseHeldBy(nodeId)
    .then((released) => {
      if (released > 0)
        logger.info({ released }, 'alert deliveries held when this node stopped are retried now');
    })
    .catch((error: unknown) => logger.error({ err: error }, 'the alert delivery queue could not be read'))
    .then(() => pump());

  return {
    async create(actor: Actor, projectId: string, input: CreateAlertChannel): Promise<CreatedAlertChannel> {
      await projects.getProjectFor(actor.id, projectId, 'manage');
      let memberIds: string[] = [];
      let url: string | null = null;
      if (input.type === 'email') {
        memberIds = [...new Set(input.memberIds)];
        const found = new Set((await store.membersAmong(projectId, memberIds)).map((member) => member.id));
        const strangers = memberIds.filter((id) => !found.has(id));
        if (strangers.length > 0) {
          throw badRequest('Every chosen person must be a member of the project.', [
            { path: 'memberIds', message: `not members of the project: ${strangers.join(', ')}` },
          ]);
        }
      } else {
        url = input.url;
        // Slack's and Discord's hosts are fixed (the URL pattern); a webhook's is checked now, and again
        // when each delivery connects.
        if (input.type === 'webhook' && !allowPrivateNetworks) {
          try {
            await checkUrlHost(new URL(url));
          } catch (error) {
            if (error instanceof RefusedAddressError) throw addressRefused(error.message);
            throw error;
          }
        }
      }
      const secret = input.type === 'webhook' ? newWebhookSecret() : null;
      const channel = await store.insertWithin(
        {
          id: newId(),
          project_id: projectId,
          type: input.type,
          name: input.name,
          url,
          secret,
          member_ids: JSON.stringify(memberIds),
          created_at: clock().toISOString(),
        },
        MAX_ALERT_CHANNELS_PER_PROJECT,
      );
      if (!channel) {
        throw badRequest(`A project can have at most ${MAX_ALERT_CHANNELS_PER_PROJECT} alert channels.`);
      }
      await audit.record({
        projectId,
        actor,
        action: 'alert_channel.create',
        target: channel.name,
        details: { type: channel.type },
      });
      return secret ? { ...channel, secret } : channel;
    },

    async list(userId: string, projectId: string): Promise<AlertChannel[]> {
      await projects.getProjectFor(userId, projectId);
      return store.listByProject(projectId);
    },

    /** Deleted with its deliveries: notices not delivered yet are dropped. */
    async remove(actor: Actor, projectId: string, channelId: string): Promise<void> {
      await projects.getProjectFor(actor.id, projectId, 'manage');
      const name = isId(channelId) ? await store.delete(projectId, channelId) : null;
      if (name === null) throw notFound('Alert channel not found.');
      await audit.record({ projectId, actor, action: 'alert_channel.delete', target: name });
    },

    /** A `type: "test"` notice to this channel alone, delivered (and logged) as any other. */
    async sendTest(actor: Actor, projectId: string, channelId: string): Promise<{ noticeId: string }> {
      const project = await projects.getProjectFor(actor.id, projectId, 'manage');
      await channelOf(projectId, channelId);
      const notice: AlertNotice = {
        id: newId(),
        type: 'test',
        project: { id: project.id, name: project.name },
        rule: null,
        at: clock().toISOString(),
        subject: { kind: 'project', id: project.id },
        figures: {},
        url: `${publicUrl}/console/${project.id}/alerts`,
      };
      await enqueueNotice(notice, [channelId]);
      return { noticeId: notice.id };
    },

    async deliveries(userId: string, projectId: string, channelId: string): Promise<AlertDelivery[]> {
      await projects.getProjectFor(userId, projectId);
      const channel = await channelOf(projectId, channelId);
      return store.deliveryLog(channel.id);
    },

    enqueueNotice,

    /** Which of `channelIds` are channels of the project, in their order (what a rule may name). */
    async channelIdsOf(projectId: string, channelIds: readonly string[]): Promise<string[]> {
      const found = new Set(
        (await store.findMany(projectId, [...new Set(channelIds)].filter(isId))).map((channel) => channel.id),
      );
      return channelIds.filter((id) => found.has(id));
    },

    /** Delivers everything due now and waits for it (tests; a retry after a failure stays scheduled). */
    async flush(): Promise<void> {
      for (;;) {
        // A claim already under way may have read the queue before now: the one that counts starts after it.
        await claiming;
        const claimed = await pump();
        if (claimed === 0 && inFlight.size === 0) return;
        await Promise.all(inFlight.values());
      }
    },

    /** Deliveries not finished yet, on every node (health, tests). */
    pending: () => store.countPending(),

    /** Stops delivering; deliveries under way are given back for the next start (or another node). */
    async close(): Promise<void> {
      await started;
      isClosed = true;
      clearInterval(timer);
      for (const retry of retryTimers) clearTimeout(retry);
      await claiming?.catch(() => undefined);
      await store.release([...inFlight.keys()]).catch(() => undefined);
    },
  };

  /**
   * Stores one delivery of `notice` per channel (those of `channelIds` that belong to the notice's project;
   * others, deleted since, are skipped) before it returns, then starts delivering. The notice's id is the
   * `Polyflow-Delivery` of every attempt; a notice enqueued twice for a channel is delivered once.
   */
  async function enqueueNotice(notice: AlertNotice, channelIds: readonly string[]): Promise<void> {
    const parsed = AlertNoticeSchema.parse(notice);
    const ids = [...new Set(channelIds)].filter(isId);
    const channels = await store.findMany(parsed.project.id, ids);
    if (channels.length === 0) return;
    const body = JSON.stringify(parsed);
    const now = clock();
    await store.insertDeliveries(
      channels.map((channel) => ({
        id: newId(),
        channel_id: channel.id,
        notice_id: parsed.id,
        notice_type: parsed.type,
        notice: body,
        state: 'pending' as const,
        attempts: 0,
        next_attempt_at: now.toISOString(),
        claimed_until: null,
        claimed_by: null,
        expires_at: new Date(now.getTime() + DELIVERY_LIFETIME_MS).toISOString(),
        created_at: now.toISOString(),
      })),
    );
    void pump();
  }
}
