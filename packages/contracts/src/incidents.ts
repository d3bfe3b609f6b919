import { z } from 'zod';

/**
 * What the incident GraphQL queries answer (`apps/server/src/modules/incidents/schema.ts`), for the
 * console to parse. Grouping, severity rules and every figure: `docs/acquisition-and-incidents.md`.
 *
 * Times are ISO 8601 UTC strings; rates are fractions (0.027 = 2.7 %), like `analytics.ts`.
 */

const isoTime = z.string();

export const Severities = ['low', 'mid', 'high', 'severe'] as const;
export type Severity = (typeof Severities)[number];
export const SeverityLabels: Record<Severity, string> = {
  low: 'Low',
  mid: 'Mid',
  high: 'High',
  severe: 'Severe',
};

/**
 * What the project's owner decided: `open` (default), `resolved` (fixed; it comes back as open, flagged as a
 * regression, when it occurs after being resolved) or `ignored` (hidden from the default list until reopened).
 */
export const IncidentStatuses = ['open', 'resolved', 'ignored'] as const;
export type IncidentStatus = (typeof IncidentStatuses)[number];
export const IncidentStatusLabels: Record<IncidentStatus, string> = {
  open: 'Open',
  resolved: 'Resolved',
  ignored: 'Ignored',
};

/** The error event's `source`: an uncaught error, an unhandled promise rejection, a failed wallet call. */
export const IncidentTypes = ['window', 'promise', 'wallet'] as const;
export type IncidentType = (typeof IncidentTypes)[number];
export const IncidentTypeLabels: Record<IncidentType, string> = {
  window: 'Frontend error',
  promise: 'Unhandled rejection',
  wallet: 'Wallet error',
};

/** An incident's impact: within the queried range on rows, over its whole life in `lifetime`. */
export const IncidentImpactSchema = z.object({
  occurrences: z.number(),
  affectedUsers: z.number(),
  affectedWallets: z.number(),
  /** Distinct UTC days with an occurrence. */
  activeDays: z.number(),
  /** Failed or reverted transactions of the same session, from 10 s before to 5 min after an occurrence. */
  failedTransactions: z.number(),
});
export type IncidentImpact = z.infer<typeof IncidentImpactSchema>;

/**
 * The member an incident is assigned to (docs/acquisition-and-incidents.md, "Assignment"); always a current
 * member of the project: a member who leaves or is removed loses their assignments.
 */
export const IncidentAssigneeSchema = z.object({
  userId: z.string(),
  email: z.string(),
  assignedAt: isoTime,
});
export type IncidentAssignee = z.infer<typeof IncidentAssigneeSchema>;

/** The incident list's assignee filter: a member's user id, or one of these two words. */
export const ASSIGNEE_ME = 'me';
export const ASSIGNEE_NONE = 'none';

/** One row of the incident table. */
export const IncidentRowSchema = IncidentImpactSchema.extend({
  /** Stable: derived from the project and the fingerprint, the same in every range. */
  id: z.string(),
  type: z.enum(IncidentTypes),
  /** The latest occurrence's message. */
  title: z.string(),
  severity: z.enum(Severities),
  firstSeen: isoTime,
  /** "Time" in the table. */
  lastSeen: isoTime,
  /** The most recently affected wallet address; null when no occurrence had a wallet. */
  wallet: z.string().nullable(),
  /** RPC error code and method of wallet errors. */
  code: z.number().nullable(),
  method: z.string().nullable(),
  /** `resolved` only while nothing occurred after the resolve; a later occurrence makes it `open` again. */
  status: z.enum(IncidentStatuses),
  /** Resolved once, then occurred again after that. */
  isRegression: z.boolean(),
  /** When it was last resolved or ignored; null when it never was (or was reopened). */
  statusChangedAt: isoTime.nullable(),
  /** Null when unassigned. */
  assignee: IncidentAssigneeSchema.nullable(),
});
export type IncidentRow = z.infer<typeof IncidentRowSchema>;

/** The incident's whole life, first to last occurrence, whatever the range: what severity is decided from. */
export const IncidentLifetimeSchema = IncidentImpactSchema.extend({
  firstSeen: isoTime,
  lastSeen: isoTime,
  /** Distinct users of the project with any event between the first and the last occurrence's UTC days. */
  activeUsers: z.number(),
  /** affectedUsers / activeUsers (0..1). */
  reach: z.number(),
});
export type IncidentLifetime = z.infer<typeof IncidentLifetimeSchema>;

export const StatusCountsSchema = z.object({ open: z.number(), resolved: z.number(), ignored: z.number() });
export type StatusCounts = z.infer<typeof StatusCountsSchema>;

export const SeverityCountsSchema = z.object({
  low: z.number(),
  mid: z.number(),
  high: z.number(),
  severe: z.number(),
});
export type SeverityCounts = z.infer<typeof SeverityCountsSchema>;

/**
 * `incidents`: the list screen. `totalIncidents`, `bySeverity` and the fail rate ignore `search` and
 * `severities` (the first two count the incidents of the chosen statuses); `byStatus` ignores every filter.
 */
export const IncidentListSchema = z.object({
  from: isoTime,
  to: isoTime,
  totalIncidents: z.number(),
  byStatus: StatusCountsSchema,
  /** Same definition as the Analytics screen (`docs/analytics.md`); null without transactions. */
  transactionFailRate: z.number().nullable(),
  bySeverity: SeverityCountsSchema,
  /** Incidents matching the search and severity filter (all pages). */
  matching: z.number(),
  /** Most recent (last seen) first. */
  rows: z.array(IncidentRowSchema),
  /** Pass as `after` for the next page; null on the last page. */
  nextCursor: z.string().nullable(),
});
export type IncidentList = z.infer<typeof IncidentListSchema>;

/** The wallet as the SDK read it when the error happened. */
export const IncidentWalletStateSchema = z.object({
  /** Wei (the chain's smallest unit), decimal string. */
  gasBalanceWei: z.string().nullable(),
  /** e.g. "0.25 ETH", "137.5 POL"; the raw unit when the chain is unknown. */
  gasBalance: z.string().nullable(),
  symbol: z.string().nullable(),
  nonce: z.string().nullable(),
  chainId: z.number().nullable(),
  /** e.g. "Ethereum", "Polygon", "Anvil (local)", or "Chain 12345" when unknown. */
  network: z.string().nullable(),
  walletProvider: z.string().nullable(),
});
export type IncidentWalletState = z.infer<typeof IncidentWalletStateSchema>;

/** One line of the trail: an event of the same session before the occurrence. */
export const TrailEventSchema = z.object({
  time: isoTime,
  /** The event's type (`page_view`, `tx`, …). */
  type: z.string(),
  description: z.string(),
});
export type TrailEvent = z.infer<typeof TrailEventSchema>;

/** The incident's latest occurrence in the range, as stored. */
export const IncidentOccurrenceSchema = z.object({
  eventId: z.string(),
  time: isoTime,
  userId: z.string(),
  sessionId: z.string(),
  wallet: z.string().nullable(),
  walletState: IncidentWalletStateSchema,
  message: z.string(),
  stack: z.string().nullable(),
  code: z.number().nullable(),
  method: z.string().nullable(),
  path: z.string().nullable(),
  browser: z.string().nullable(),
  os: z.string().nullable(),
  country: z.string().nullable(),
  /** Up to 20 events of the session before the occurrence, oldest first. */
  trail: z.array(TrailEventSchema),
});
export type IncidentOccurrence = z.infer<typeof IncidentOccurrenceSchema>;

/** `incident`: the detail screen. */
export const IncidentDetailSchema = IncidentRowSchema.extend({
  from: isoTime,
  to: isoTime,
  /** What grouped the occurrences: the normalised message and top frame, or RPC code and method. */
  fingerprint: z.string(),
  lifetime: IncidentLifetimeSchema,
  latest: IncidentOccurrenceSchema,
});
export type IncidentDetail = z.infer<typeof IncidentDetailSchema>;
