import { z } from 'zod';

/**
 * One message of `GET /api/v1/projects/:id/live` (text/event-stream): an event of the project, sent as
 * soon as ingestion acknowledged it (durable in the ingestion log), before it is loaded into the event
 * store. Definitions: docs/live.md.
 */
export const LiveEventSchema = z.object({
  id: z.string(),
  /** page_view | wallet_detected | wallet_connected | wallet_disconnected | chain_changed | tx | signature | error | custom */
  type: z.string(),
  /** A custom event's name (`polyflow.track(name)`); null for the other types. */
  eventName: z.string().nullable(),
  /** The event's own time (client clock), ISO 8601. */
  time: z.string(),
  /** When the server accepted it, ISO 8601. */
  receivedAt: z.string(),
  userId: z.string(),
  sessionId: z.string(),
  path: z.string().nullable(),
  /** Lower-case address: the connected wallet, or a transaction's sender. */
  wallet: z.string().nullable(),
  walletProvider: z.string().nullable(),
  chainId: z.number().nullable(),
  /** Transactions: requested | rejected | failed | submitted | confirmed | reverted | replaced | dropped. */
  txStage: z.string().nullable(),
  txHash: z.string().nullable(),
  /** Signatures: requested | signed | rejected | failed. */
  signatureStage: z.string().nullable(),
  signatureMethod: z.string().nullable(),
  /** Errors, and failed transactions or signatures: the message (at most 200 characters). */
  errorMessage: z.string().nullable(),
  country: z.string().nullable(),
  browser: z.string().nullable(),
});
export type LiveEvent = z.infer<typeof LiveEventSchema>;

/** The last message before the server closes a stream itself; the console reconnects after it. */
export const LiveClosingSchema = z.object({
  /**
   * SLOW_CONSUMER: the client read too slowly; SESSION_ENDED: sign in again (Log Out, password reset,
   * expiry); ACCESS_ENDED: the user no longer has access to the project; SHUTDOWN: the server stops.
   */
  reason: z.enum(['SLOW_CONSUMER', 'SESSION_ENDED', 'ACCESS_ENDED', 'SHUTDOWN']),
  message: z.string(),
});
export type LiveClosing = z.infer<typeof LiveClosingSchema>;

/** The Live screen's tiles: activity in the last 30 minutes, from the event store. */
export const LiveActivitySchema = z.object({
  from: z.string(),
  to: z.string(),
  activeUsers: z.number(),
  activeWallets: z.number(),
  eventsPerMinute: z.array(z.object({ from: z.string(), to: z.string(), value: z.number() })),
});
export type LiveActivity = z.infer<typeof LiveActivitySchema>;
