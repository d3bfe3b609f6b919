import type { ColumnType } from 'kysely';

/** Row types of the account store; timestamps are ISO-8601 UTC strings on both engines. */
export type UsersTable = {
  id: string;
  email: string;
  password_hash: string;
  verified_at: string | null;
  password_changed_at: string;
  /** Sessions carry this number; a password reset increments it, which ends every earlier session. */
  session_version: number;
  created_at: string;
};

export type EmailTokenPurpose = 'verify' | 'reset';

export type EmailTokensTable = {
  id: string;
  user_id: string;
  purpose: EmailTokenPurpose;
  /** sha256 of the emailed token: a leaked database cannot be used to verify or reset. */
  token_hash: string;
  /** sha256 of the short code emailed beside the link (verification only); null on reset tokens. */
  code_hash: string | null;
  /** Tries of the short code so far; at SHORT_CODE_MAX_ATTEMPTS it no longer opens anything. */
  code_attempts: number;
  expires_at: string;
  used_at: string | null;
  created_at: string;
};

export type ProjectsTable = {
  id: string;
  owner_id: string;
  name: string;
  api_key: string | null;
  created_at: string;
  /** Events older than this many days (client time) are deleted by the hourly retention job; null: kept. */
  retention_days: number | null;
  /** IANA name (migration 013); `UTC` by default. */
  time_zone: ColumnType<string, string | undefined, string>;
  /** JSON array of wallet error codes whose errors are not incidents (ADR 067); '[4001]' by default. */
  ignored_wallet_codes: ColumnType<string, string | undefined, string>;
};

/** A dated note on a project's time charts; dates are the project's local calendar dates (YYYY-MM-DD). */
export type AnnotationsTable = {
  id: string;
  project_id: string;
  text: string;
  start_date: string;
  end_date: string | null;
  created_by: string;
  created_at: string;
};

/** A project's goal (migration 014, docs/goals.md): `kind` 'event' fills event_name (and the property), 'path' path_pattern. */
export type GoalsTable = {
  id: string;
  project_id: string;
  name: string;
  kind: 'event' | 'path';
  event_name: string | null;
  property_key: string | null;
  property_value: string | null;
  path_pattern: string | null;
  created_by: string;
  created_at: string;
};

/** A project's read token: only its sha256 is kept; the token was shown once, at creation. */
export type ReadTokensTable = {
  id: string;
  project_id: string;
  name: string;
  token_hash: string;
  created_at: string;
};

export type ProjectDomainsTable = {
  project_id: string;
  domain: string;
  created_at: string;
};

/** One console session (the `sid` of its JWT); verified on every request, ended by Log Out or a reset. */
export type SessionsTable = {
  id: string;
  user_id: string;
  created_at: string;
  expires_at: string;
  ended_at: string | null;
};

/**
 * An email not sent yet. `message` is the email encrypted with a key derived from the JWT secret: it
 * holds a verification or reset code, which the database itself keeps only hashed.
 */
export type MailOutboxTable = {
  id: string;
  message: string;
  created_at: string;
  /** After this the email is dropped unsent (its code would have expired anyway). */
  expires_at: string;
  attempts: number;
  next_attempt_at: string;
  /** A node sending it holds it until then; a crash mid-send lets another node (or a restart) retry. */
  claimed_until: string | null;
  last_error: string | null;
};

/** An open incident has no row: a row is a resolve or an ignore, with when and by whom. */
export type IncidentStatesTable = {
  project_id: string;
  incident_id: string;
  status: 'resolved' | 'ignored';
  changed_at: string;
  changed_by: string;
  /** "Resolve in next release": the release current when resolved (the incident's latest one). */
  resolved_in_release: ColumnType<string | null, string | null | undefined, string | null>;
  /** 1: resolved in next release (only an occurrence in a release first seen after it reopens it); default 0. */
  next_release: ColumnType<number, number | undefined, number>;
};

/** Who an incident is assigned to; deleted with the membership (a member who leaves loses it). */
export type IncidentAssignmentsTable = {
  project_id: string;
  incident_id: string;
  user_id: string;
  assigned_at: string;
  assigned_by: string;
};

/** A project's member; the owner has a row too (role `owner`, exactly one, = projects.owner_id). */
export type ProjectMembersTable = {
  project_id: string;
  user_id: string;
  role: 'owner' | 'admin' | 'viewer';
  joined_at: string;
};

/** An emailed invitation: its link's token is kept only as sha256; accepted or revoked ones are gone. */
export type ProjectInvitationsTable = {
  id: string;
  project_id: string;
  /** Lower-cased, as accounts' emails are. */
  email: string;
  role: 'admin' | 'viewer';
  token_hash: string;
  invited_by: string;
  created_at: string;
  expires_at: string;
};

/**
 * One change to a project, kept a year. No foreign key: a deleted project's entries (its deletion
 * among them) stay until they are a year old.
 */
export type AuditLogTable = {
  id: string;
  project_id: string;
  at: string;
  actor_user_id: string;
  actor_email: string;
  action: string;
  target: string | null;
  /** JSON object. */
  details: string;
  ip: string;
};

export type AlertChannelType = 'email' | 'webhook' | 'slack' | 'discord';

/** Where a project's alerts go (modules/alert-channels, migration 008). */
export type AlertChannelsTable = {
  id: string;
  project_id: string;
  type: AlertChannelType;
  name: string;
  /** The webhook, Slack or Discord URL; null for email. */
  url: string | null;
  /** A webhook's signing secret (shown once, kept to sign); null for the other types. */
  secret: string | null;
  /** JSON array of the members an email channel writes to; '[]' for the other types. */
  member_ids: string;
  created_at: string;
};

export type AlertDeliveryState = 'pending' | 'delivered' | 'failed';

/** One notice to one channel: the durable queue's row, claimed with a lease (claimed_until). */
export type AlertDeliveriesTable = {
  id: string;
  channel_id: string;
  notice_id: string;
  notice_type: string;
  notice: string;
  state: AlertDeliveryState;
  attempts: number;
  next_attempt_at: string;
  claimed_until: string | null;
  /** The node holding the claim (see alert-channels/service.ts `nodeId`). */
  claimed_by: string | null;
  expires_at: string;
  created_at: string;
};

/** Each attempt at a delivery: what the receiver answered, or why there was no answer. */
export type AlertDeliveryAttemptsTable = {
  id: string;
  delivery_id: string;
  channel_id: string;
  attempt: number;
  at: string;
  status_code: number | null;
  latency_ms: number | null;
  error: string | null;
  /** 1 when this attempt delivered the notice (a 2xx answer), else 0. */
  delivered: number;
};

/** A member's email report choice for a project (0 or 1: portable to both engines); absent = both off. */
export type ReportSubscriptionsTable = {
  project_id: string;
  user_id: string;
  weekly: number;
  monthly: number;
  updated_at: string;
};

/**
 * One report for one member and period: `claimed` by the node building it until `claimed_until` (another
 * node may take it over after that, with a new `claim_id`), `sent` once its email is in the outbox.
 */
export type ReportSendsTable = {
  id: string;
  project_id: string;
  user_id: string;
  kind: 'weekly' | 'monthly';
  /** ISO time the period starts (its first midnight in the report's time zone). */
  period_start: string;
  state: 'claimed' | 'sent';
  claim_id: string;
  claimed_until: string;
  sent_at: string | null;
};

/** An alert rule (docs/alerts.md#rules); `params` and `channel_ids` are JSON text. */
export type AlertRulesTable = {
  id: string;
  project_id: string;
  name: string;
  kind: string;
  params: string;
  channel_ids: string;
  cooldown_minutes: number;
  /** 0 or 1 on both engines. */
  paused: number;
  created_at: string;
  updated_at: string;
};

/** A project's write token (source-map uploads only): only its sha256 is kept; shown once, at creation. */
export type WriteTokensTable = {
  id: string;
  project_id: string;
  name: string;
  token_hash: string;
  created_by: string;
  created_at: string;
};

/** A release with uploaded source maps: their total size (50 MB at most); the oldest go past 100. */
export type SourcemapReleasesTable = {
  project_id: string;
  release: string;
  bytes: number | string | bigint;
  created_at: string;
  updated_at: string;
};

/**
 * A rule's state for one subject (`project` or an incident id): whether it is firing, when it last fired
 * (its cooldown), and a kind's marker (a regression: the resolve it fired for).
 */
export type AlertRuleStatesTable = {
  rule_id: string;
  subject_id: string;
  is_firing: number;
  last_fired_at: string | null;
  marker: string | null;
};

/** One firing of a rule; `subject` and `figures` are JSON text; `notified_at` once the channels have it. */
export type AlertFiringsTable = {
  id: string;
  rule_id: string;
  type: 'triggered' | 'resolved';
  subject: string;
  figures: string;
  at: string;
  notified_at: string | null;
};

/** One uploaded map: the minified file's URL (`~/assets/index.js`) and where the map lies under DATA_DIR. */
export type SourcemapFilesTable = {
  project_id: string;
  release: string;
  url: string;
  /** Relative to DATA_DIR/sourcemaps. */
  file: string;
  bytes: number | string | bigint;
  uploaded_at: string;
};

export type Database = {
  users: UsersTable;
  email_tokens: EmailTokensTable;
  sessions: SessionsTable;
  mail_outbox: MailOutboxTable;
  projects: ProjectsTable;
  annotations: AnnotationsTable;
  goals: GoalsTable;
  project_domains: ProjectDomainsTable;
  incident_states: IncidentStatesTable;
  incident_assignments: IncidentAssignmentsTable;
  read_tokens: ReadTokensTable;
  project_members: ProjectMembersTable;
  project_invitations: ProjectInvitationsTable;
  audit_log: AuditLogTable;
  alert_channels: AlertChannelsTable;
  alert_deliveries: AlertDeliveriesTable;
  alert_delivery_attempts: AlertDeliveryAttemptsTable;
  report_subscriptions: ReportSubscriptionsTable;
  report_sends: ReportSendsTable;
  alert_rules: AlertRulesTable;
  alert_rule_states: AlertRuleStatesTable;
  alert_firings: AlertFiringsTable;
  write_tokens: WriteTokensTable;
  sourcemap_releases: SourcemapReleasesTable;
  sourcemap_files: SourcemapFilesTable;
};
