import type { ServerResponse } from 'node:http';
import type { LiveClosing, LiveEvent } from '@polyflow/contracts/live';
import { AppError } from '../../errors.ts';
import type { EventRow } from '../event-store/event-row.ts';
import { type LiveConnection, openLiveConnection, sseMessage } from './connection.ts';

export type LiveFeedOptions = {
  /** Per connection (default 1,000 messages, under 1 MB). */
  maxQueuedMessages?: number;
  /** Streams open at once on one project (default 10) and for one user over all projects (default 20). */
  maxConnectionsPerProject?: number;
  maxConnectionsPerUser?: number;
  /**
   * Streams one user may hold of one project (default 5, half a project's): one member (a viewer's ten
   * tabs, or a script) could take every stream of a project, and its owner's Live screen answered 429.
   */
  maxConnectionsPerUserOfProject?: number;
  /** Default 15 s: well inside the 60 s idle timeout of common proxies. */
  heartbeatMs?: number;
  closeGraceMs?: number;
};

export type LiveFeed = ReturnType<typeof createLiveFeed>;

const SESSION_ENDED: LiveClosing = {
  reason: 'SESSION_ENDED',
  message: 'The session ended; sign in again to watch live.',
};
const SESSION_EXPIRED: LiveClosing = {
  reason: 'SESSION_ENDED',
  message: 'The session expired; sign in again to watch live.',
};
const ACCESS_ENDED: LiveClosing = {
  reason: 'ACCESS_ENDED',
  message: 'You no longer have access to this project.',
};

const clip = (text: string | null, length: number): string | null =>
  text === null || text.length <= length ? text : `${text.slice(0, length - 1)}…`;

/** What the Live screen shows of a stored event (contracts/live.ts). */
export function liveEventOf(row: EventRow): LiveEvent {
  return {
    id: row.id,
    type: row.type,
    eventName: row.event_name,
    time: new Date(row.ts).toISOString(),
    receivedAt: new Date(row.received_at).toISOString(),
    userId: row.user_id,
    sessionId: row.session_id,
    path: clip(row.path, 300),
    wallet: row.wallet_address ?? row.tx_from,
    walletProvider: row.wallet_provider,
    chainId: row.chain_id,
    txStage: row.tx_stage,
    txHash: row.tx_hash,
    signatureStage: row.sig_stage,
    signatureMethod: row.sig_method,
    errorMessage: clip(row.error_message, 200),
    country: row.country,
    browser: row.browser,
  };
}

/**
 * The live streams of every project: ingestion publishes each group of events as it acknowledges them
 * (durable in the log), and each stream of that project gets one message per event. A project nobody
 * watches costs one map look-up per commit.
 */
export function createLiveFeed(options: LiveFeedOptions = {}) {
  const maxPerProject = options.maxConnectionsPerProject ?? 10;
  const maxPerUser = options.maxConnectionsPerUser ?? 20;
  const maxPerUserOfProject = options.maxConnectionsPerUserOfProject ?? 5;
  const byProject = new Map<string, Set<LiveConnection>>();
  const perUser = new Map<string, number>();
  /** Who each open stream is for: the user, and the session its token names. */
  const owners = new Map<LiveConnection, { userId: string; projectId: string; sessionId: string }>();
  let peakOfEnded = 0;

  function closeWhere(
    isMatch: (owner: { userId: string; projectId: string; sessionId: string }) => boolean,
    closing: LiveClosing,
  ): number {
    let closed = 0;
    for (const [connection, owner] of [...owners]) {
      if (!isMatch(owner)) continue;
      connection.close(closing);
      closed += 1;
    }
    return closed;
  }

  return {
    isWatched: (projectId: string): boolean => byProject.has(projectId),

    /** One message per row, to every stream of the project. */
    publish(projectId: string, rows: readonly EventRow[]): void {
      const connections = byProject.get(projectId);
      if (!connections || rows.length === 0) return;
      const messages = rows.map((row) => sseMessage('event', liveEventOf(row), row.id));
      for (const connection of connections) connection.send(messages);
    },

    /** 429 RATE_LIMITED beyond the caps; checked and counted at once (no await between). */
    assertRoom(userId: string, projectId: string): void {
      if ((byProject.get(projectId)?.size ?? 0) >= maxPerProject) {
        throw new AppError(
          429,
          'RATE_LIMITED',
          `This project already has ${maxPerProject} live streams open; close one (another tab) and retry.`,
        );
      }
      let ofUser = 0;
      for (const connection of byProject.get(projectId) ?? []) {
        if (owners.get(connection)?.userId === userId) ofUser += 1;
      }
      if (ofUser >= maxPerUserOfProject) {
        throw new AppError(
          429,
          'RATE_LIMITED',
          `You already have ${maxPerUserOfProject} live streams of this project open; close one (another tab) and retry.`,
        );
      }
      if ((perUser.get(userId) ?? 0) >= maxPerUser) {
        throw new AppError(
          429,
          'RATE_LIMITED',
          `You already have ${maxPerUser} live streams open; close one (another tab) and retry.`,
        );
      }
    },

    /**
     * Starts streaming to a response whose text/event-stream head is written; call assertRoom first.
     * The stream closes with `SESSION_ENDED` when its session expires (`expiresAtMs`, a timer), ends on
     * this node (`endSessions`), or is found ended at a heartbeat (`isStillAllowed`, ended elsewhere).
     */
    open(
      session: { userId: string; sessionId: string; expiresAtMs: number },
      projectId: string,
      response: ServerResponse,
      isStillAllowed: () => Promise<boolean>,
      nowMs: number = Date.now(),
    ): LiveConnection {
      const { userId, sessionId } = session;
      let connections = byProject.get(projectId);
      if (!connections) {
        connections = new Set();
        byProject.set(projectId, connections);
      }
      perUser.set(userId, (perUser.get(userId) ?? 0) + 1);
      const connection = openLiveConnection(response, {
        maxQueuedMessages: options.maxQueuedMessages ?? 1000,
        heartbeatMs: options.heartbeatMs ?? 15_000,
        closeGraceMs: options.closeGraceMs ?? 5_000,
        isStillAllowed,
        onEnd() {
          clearTimeout(expiry);
          owners.delete(connection);
          peakOfEnded = Math.max(peakOfEnded, connection.peakQueued());
          const set = byProject.get(projectId);
          set?.delete(connection);
          if (set?.size === 0) byProject.delete(projectId);
          const count = (perUser.get(userId) ?? 1) - 1;
          if (count > 0) perUser.set(userId, count);
          else perUser.delete(userId);
        },
      });
      connections.add(connection);
      owners.set(connection, { userId, projectId, sessionId });
      // setTimeout takes at most 2^31 - 1 ms (24.8 days); sessions last 7.
      const expiry = setTimeout(
        () => connection.close(SESSION_EXPIRED),
        Math.min(2 ** 31 - 1, Math.max(0, session.expiresAtMs - nowMs)),
      );
      expiry.unref();
      if (connection.isEnded()) clearTimeout(expiry);
      return connection;
    },

    /** Sessions ended on this node (Log Out: one; a password reset: all of a user's): their streams close now. */
    endSessions(ended: { userId: string; sessionId?: string }): number {
      return closeWhere(
        (owner) =>
          owner.userId === ended.userId &&
          (ended.sessionId === undefined || owner.sessionId === ended.sessionId),
        SESSION_ENDED,
      );
    },

    /**
     * Closes the streams a user has open on a project, at once, with `ACCESS_ENDED` (docs/live.md): call it
     * when the user loses access to the project (removed as a member, the project deleted). Answers how
     * many closed.
     */
    closeStreamsOf(userId: string, projectId: string): number {
      return closeWhere((owner) => owner.userId === userId && owner.projectId === projectId, ACCESS_ENDED);
    },

    /** Every stream of a project (deleted): `ACCESS_ENDED`. */
    closeProjectStreams(projectId: string): number {
      return closeWhere((owner) => owner.projectId === projectId, ACCESS_ENDED);
    },

    /** Every stream (shutdown): each gets its closing message. */
    closeAll(closing: LiveClosing): void {
      for (const connections of [...byProject.values()]) {
        for (const connection of [...connections]) connection.close(closing);
      }
    },

    /** The most messages that ever waited for one stream (at most maxQueuedMessages; tests). */
    peakQueued(): number {
      let peak = peakOfEnded;
      for (const connections of byProject.values()) {
        for (const connection of connections) peak = Math.max(peak, connection.peakQueued());
      }
      return peak;
    },

    /** Open streams, in all and per project (tests, metrics). */
    connections(projectId?: string): number {
      if (projectId !== undefined) return byProject.get(projectId)?.size ?? 0;
      let total = 0;
      for (const connections of byProject.values()) total += connections.size;
      return total;
    },
  };
}
