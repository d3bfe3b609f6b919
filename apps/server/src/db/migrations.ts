import { type Kysely, type Migration, type MigrationProvider, Migrator, sql } from 'kysely';

// Only portable column types (text, foreign keys, unique indexes) so one migration set serves SQLite and PostgreSQL.
const migrations: Record<string, Migration> = {
  '001_accounts_and_projects': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('users')
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('email', 'text', (col) => col.notNull().unique())
        .addColumn('password_hash', 'text', (col) => col.notNull())
        .addColumn('verified_at', 'text')
        .addColumn('password_changed_at', 'text', (col) => col.notNull())
        .addColumn('session_version', 'integer', (col) => col.notNull().defaultTo(0))
        .addColumn('created_at', 'text', (col) => col.notNull())
        .execute();

      await db.schema
        .createTable('email_tokens')
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
        .addColumn('purpose', 'text', (col) => col.notNull().check(sql`purpose in ('verify', 'reset')`))
        .addColumn('token_hash', 'text', (col) => col.notNull().unique())
        .addColumn('expires_at', 'text', (col) => col.notNull())
        .addColumn('used_at', 'text')
        .addColumn('created_at', 'text', (col) => col.notNull())
        .execute();
      await db.schema.createIndex('email_tokens_user_idx').on('email_tokens').column('user_id').execute();

      await db.schema
        .createTable('projects')
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('owner_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
        .addColumn('name', 'text', (col) => col.notNull())
        .addColumn('api_key', 'text', (col) => col.unique())
        .addColumn('created_at', 'text', (col) => col.notNull())
        .execute();
      await db.schema.createIndex('projects_owner_idx').on('projects').column('owner_id').execute();

      await db.schema
        .createTable('project_domains')
        .addColumn('project_id', 'text', (col) => col.notNull().references('projects.id').onDelete('cascade'))
        .addColumn('domain', 'text', (col) => col.notNull())
        .addColumn('created_at', 'text', (col) => col.notNull())
        .addPrimaryKeyConstraint('project_domains_pk', ['project_id', 'domain'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      for (const table of ['project_domains', 'projects', 'email_tokens', 'users']) {
        await db.schema.dropTable(table).execute();
      }
    },
  },

  // Server-side session state: Log Out and a password reset end sessions before their JWT expires.
  '002_sessions': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('sessions')
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
        .addColumn('created_at', 'text', (col) => col.notNull())
        .addColumn('expires_at', 'text', (col) => col.notNull())
        .addColumn('ended_at', 'text')
        .execute();
      await db.schema.createIndex('sessions_user_idx').on('sessions').column('user_id').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('sessions').execute();
    },
  },

  // Emails waiting to be sent, retried until they go (modules/mail, ADR 009).
  '003_mail_outbox': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('mail_outbox')
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('message', 'text', (col) => col.notNull())
        .addColumn('created_at', 'text', (col) => col.notNull())
        .addColumn('expires_at', 'text', (col) => col.notNull())
        .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
        .addColumn('next_attempt_at', 'text', (col) => col.notNull())
        .addColumn('claimed_until', 'text')
        .addColumn('last_error', 'text')
        .execute();
      await db.schema
        .createIndex('mail_outbox_due_idx')
        .on('mail_outbox')
        .column('next_attempt_at')
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('mail_outbox').execute();
    },
  },

  // An incident's owner-set status (resolve / ignore). Incidents themselves live in the event store; this
  // keeps only the owner's decision, per project, and goes with the project.
  '004_incident_states': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('incident_states')
        .addColumn('project_id', 'text', (col) => col.notNull().references('projects.id').onDelete('cascade'))
        .addColumn('incident_id', 'text', (col) => col.notNull())
        .addColumn('status', 'text', (col) => col.notNull().check(sql`status in ('resolved', 'ignored')`))
        .addColumn('changed_at', 'text', (col) => col.notNull())
        .addColumn('changed_by', 'text', (col) => col.notNull())
        .addPrimaryKeyConstraint('incident_states_pk', ['project_id', 'incident_id'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('incident_states').execute();
    },
  },

  // The short code emailed beside the verification link: same row, so the same expiry, single use and
  // ending rules as the token; its wrong tries are counted so that guessing it is hopeless.
  '005_email_token_codes': {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('email_tokens').addColumn('code_hash', 'text').execute();
      await db.schema
        .alterTable('email_tokens')
        .addColumn('code_attempts', 'integer', (col) => col.notNull().defaultTo(0))
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('email_tokens').dropColumn('code_attempts').execute();
      await db.schema.alterTable('email_tokens').dropColumn('code_hash').execute();
    },
  },

  // Per-project retention (null keeps events forever) and read tokens: project-scoped credentials for
  // scripts and BI tools, stored as sha256 (the token itself is shown once), gone with their project.
  '006_retention_and_read_tokens': {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('projects').addColumn('retention_days', 'integer').execute();
      await db.schema
        .createTable('read_tokens')
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('project_id', 'text', (col) => col.notNull().references('projects.id').onDelete('cascade'))
        .addColumn('name', 'text', (col) => col.notNull())
        .addColumn('token_hash', 'text', (col) => col.notNull().unique())
        .addColumn('created_at', 'text', (col) => col.notNull())
        .execute();
      await db.schema.createIndex('read_tokens_project_idx').on('read_tokens').column('project_id').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('read_tokens').execute();
      await db.schema.alterTable('projects').dropColumn('retention_days').execute();
    },
  },

  // Teams (ADR 048): members with roles (today's owners become `owner` members), invitations by email
  // (the link's token stored as sha256), and the audit log of every change to a project.
  '007_members_invitations_audit_log': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('project_members')
        .addColumn('project_id', 'text', (col) => col.notNull().references('projects.id').onDelete('cascade'))
        .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
        .addColumn('role', 'text', (col) => col.notNull().check(sql`role in ('owner', 'admin', 'viewer')`))
        .addColumn('joined_at', 'text', (col) => col.notNull())
        .addPrimaryKeyConstraint('project_members_pk', ['project_id', 'user_id'])
        .execute();
      await db.schema
        .createIndex('project_members_user_idx')
        .on('project_members')
        .column('user_id')
        .execute();
      await sql`insert into project_members (project_id, user_id, role, joined_at)
        select id, owner_id, 'owner', created_at from projects`.execute(db);

      await db.schema
        .createTable('project_invitations')
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('project_id', 'text', (col) => col.notNull().references('projects.id').onDelete('cascade'))
        .addColumn('email', 'text', (col) => col.notNull())
        .addColumn('role', 'text', (col) => col.notNull().check(sql`role in ('admin', 'viewer')`))
        .addColumn('token_hash', 'text', (col) => col.notNull().unique())
        .addColumn('invited_by', 'text', (col) => col.notNull())
        .addColumn('created_at', 'text', (col) => col.notNull())
        .addColumn('expires_at', 'text', (col) => col.notNull())
        .execute();
      // One invitation per address and project: a second one is a resend.
      await db.schema
        .createIndex('project_invitations_email_idx')
        .on('project_invitations')
        .columns(['project_id', 'email'])
        .unique()
        .execute();

      await db.schema
        .createTable('audit_log')
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('project_id', 'text', (col) => col.notNull())
        .addColumn('at', 'text', (col) => col.notNull())
        .addColumn('actor_user_id', 'text', (col) => col.notNull())
        .addColumn('actor_email', 'text', (col) => col.notNull())
        .addColumn('action', 'text', (col) => col.notNull())
        .addColumn('target', 'text')
        .addColumn('details', 'text', (col) => col.notNull())
        .addColumn('ip', 'text', (col) => col.notNull())
        .execute();
      await db.schema
        .createIndex('audit_log_project_at_idx')
        .on('audit_log')
        .columns(['project_id', 'at', 'id'])
        .execute();
      await db.schema.createIndex('audit_log_at_idx').on('audit_log').column('at').execute();
    },
    async down(db: Kysely<unknown>) {
      for (const table of ['audit_log', 'project_invitations', 'project_members']) {
        await db.schema.dropTable(table).execute();
      }
    },
  },

  // Alert channels (issue 27, ADR 062): where a project's alerts go (email to members, a signed webhook,
  // Slack, Discord), and the durable delivery queue: one row per notice and channel, claimed with a lease
  // (claimed_until) so that one node delivers it, retried until delivered or 24 hours old; each attempt
  // logged. A webhook's secret is kept as is: it signs every delivery.
  '008_alert_channels': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('alert_channels')
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('project_id', 'text', (col) => col.notNull().references('projects.id').onDelete('cascade'))
        .addColumn('type', 'text', (col) =>
          col.notNull().check(sql`type in ('email', 'webhook', 'slack', 'discord')`),
        )
        .addColumn('name', 'text', (col) => col.notNull())
        .addColumn('url', 'text')
        .addColumn('secret', 'text')
        /** JSON array of user ids (email channels); '[]' otherwise. */
        .addColumn('member_ids', 'text', (col) => col.notNull())
        .addColumn('created_at', 'text', (col) => col.notNull())
        .execute();
      await db.schema
        .createIndex('alert_channels_project_idx')
        .on('alert_channels')
        .column('project_id')
        .execute();

      await db.schema
        .createTable('alert_deliveries')
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('channel_id', 'text', (col) =>
          col.notNull().references('alert_channels.id').onDelete('cascade'),
        )
        .addColumn('notice_id', 'text', (col) => col.notNull())
        .addColumn('notice_type', 'text', (col) => col.notNull())
        /** The notice's JSON, exactly the bytes a webhook receives. */
        .addColumn('notice', 'text', (col) => col.notNull())
        .addColumn('state', 'text', (col) =>
          col.notNull().check(sql`state in ('pending', 'delivered', 'failed')`),
        )
        .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
        .addColumn('next_attempt_at', 'text', (col) => col.notNull())
        .addColumn('claimed_until', 'text')
        /** The node holding the claim: a node coming back after a crash takes back its own at once. */
        .addColumn('claimed_by', 'text')
        .addColumn('expires_at', 'text', (col) => col.notNull())
        .addColumn('created_at', 'text', (col) => col.notNull())
        .execute();
      // One delivery per notice and channel, whoever enqueues it twice.
      await db.schema
        .createIndex('alert_deliveries_notice_channel_idx')
        .on('alert_deliveries')
        .columns(['notice_id', 'channel_id'])
        .unique()
        .execute();
      await db.schema
        .createIndex('alert_deliveries_due_idx')
        .on('alert_deliveries')
        .columns(['state', 'next_attempt_at'])
        .execute();

      await db.schema
        .createTable('alert_delivery_attempts')
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('delivery_id', 'text', (col) =>
          col.notNull().references('alert_deliveries.id').onDelete('cascade'),
        )
        .addColumn('channel_id', 'text', (col) => col.notNull())
        .addColumn('attempt', 'integer', (col) => col.notNull())
        .addColumn('at', 'text', (col) => col.notNull())
        .addColumn('status_code', 'integer')
        .addColumn('latency_ms', 'integer')
        .addColumn('error', 'text')
        .addColumn('delivered', 'integer', (col) => col.notNull())
        .execute();
      await db.schema
        .createIndex('alert_delivery_attempts_channel_idx')
        .on('alert_delivery_attempts')
        .columns(['channel_id', 'at'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      for (const table of ['alert_delivery_attempts', 'alert_deliveries', 'alert_channels']) {
        await db.schema.dropTable(table).execute();
      }
    },
  },

  // Alert rules (issue 27, docs/alerts.md): the rules, each rule's state per subject (cooldown, firing or
  // not) and every firing; params and figures are JSON text. A firing whose notice was not handed to the
  // channels yet (notified_at null) is handed over again by the next evaluation.
  '009_alert_rules': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('alert_rules')
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('project_id', 'text', (col) => col.notNull().references('projects.id').onDelete('cascade'))
        .addColumn('name', 'text', (col) => col.notNull())
        .addColumn('kind', 'text', (col) => col.notNull())
        .addColumn('params', 'text', (col) => col.notNull())
        .addColumn('channel_ids', 'text', (col) => col.notNull())
        .addColumn('cooldown_minutes', 'integer', (col) => col.notNull())
        .addColumn('paused', 'integer', (col) => col.notNull().defaultTo(0))
        .addColumn('created_at', 'text', (col) => col.notNull())
        .addColumn('updated_at', 'text', (col) => col.notNull())
        .execute();
      await db.schema.createIndex('alert_rules_project_idx').on('alert_rules').column('project_id').execute();

      await db.schema
        .createTable('alert_rule_states')
        .addColumn('rule_id', 'text', (col) => col.notNull().references('alert_rules.id').onDelete('cascade'))
        .addColumn('subject_id', 'text', (col) => col.notNull())
        .addColumn('is_firing', 'integer', (col) => col.notNull())
        .addColumn('last_fired_at', 'text')
        .addColumn('marker', 'text')
        .addPrimaryKeyConstraint('alert_rule_states_pk', ['rule_id', 'subject_id'])
        .execute();

      await db.schema
        .createTable('alert_firings')
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('rule_id', 'text', (col) => col.notNull().references('alert_rules.id').onDelete('cascade'))
        .addColumn('type', 'text', (col) => col.notNull().check(sql`type in ('triggered', 'resolved')`))
        .addColumn('subject', 'text', (col) => col.notNull())
        .addColumn('figures', 'text', (col) => col.notNull())
        .addColumn('at', 'text', (col) => col.notNull())
        .addColumn('notified_at', 'text')
        .execute();
      await db.schema
        .createIndex('alert_firings_rule_at_idx')
        .on('alert_firings')
        .columns(['rule_id', 'at'])
        .execute();
      await db.schema
        .createIndex('alert_firings_unnotified_idx')
        .on('alert_firings')
        .column('notified_at')
        .execute();
    },
    async down(db: Kysely<unknown>) {
      for (const table of ['alert_firings', 'alert_rule_states', 'alert_rules']) {
        await db.schema.dropTable(table).execute();
      }
    },
  },

  // Email reports (docs/reports.md, ADR 063): each member's choice per project, and one row per report
  // sent, unique by (project, member, kind, period start): a report is claimed before it is built, and
  // marked sent in the transaction that puts its email in the outbox.
  '010_reports': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('report_subscriptions')
        .addColumn('project_id', 'text', (col) => col.notNull().references('projects.id').onDelete('cascade'))
        .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
        .addColumn('weekly', 'integer', (col) => col.notNull().defaultTo(0))
        .addColumn('monthly', 'integer', (col) => col.notNull().defaultTo(0))
        .addColumn('updated_at', 'text', (col) => col.notNull())
        .addPrimaryKeyConstraint('report_subscriptions_pk', ['project_id', 'user_id'])
        .execute();
      await db.schema
        .createTable('report_sends')
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('project_id', 'text', (col) => col.notNull().references('projects.id').onDelete('cascade'))
        .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
        .addColumn('kind', 'text', (col) => col.notNull().check(sql`kind in ('weekly', 'monthly')`))
        .addColumn('period_start', 'text', (col) => col.notNull())
        .addColumn('state', 'text', (col) => col.notNull().check(sql`state in ('claimed', 'sent')`))
        .addColumn('claim_id', 'text', (col) => col.notNull())
        .addColumn('claimed_until', 'text', (col) => col.notNull())
        .addColumn('sent_at', 'text')
        .execute();
      await db.schema
        .createIndex('report_sends_once_idx')
        .on('report_sends')
        .columns(['project_id', 'user_id', 'kind', 'period_start'])
        .unique()
        .execute();
    },
    async down(db: Kysely<unknown>) {
      for (const table of ['report_sends', 'report_subscriptions']) {
        await db.schema.dropTable(table).execute();
      }
    },
  },

  // Incident triage (ADR 067): each project's ignored wallet codes (a JSON array, 4001 by default), and
  // incident assignments, which go with the member (a composite foreign key on their membership).
  '011_incident_triage': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('projects')
        .addColumn('ignored_wallet_codes', 'text', (col) => col.notNull().defaultTo('[4001]'))
        .execute();
      await db.schema
        .createTable('incident_assignments')
        .addColumn('project_id', 'text', (col) => col.notNull())
        .addColumn('incident_id', 'text', (col) => col.notNull())
        .addColumn('user_id', 'text', (col) => col.notNull())
        .addColumn('assigned_at', 'text', (col) => col.notNull())
        .addColumn('assigned_by', 'text', (col) => col.notNull())
        .addPrimaryKeyConstraint('incident_assignments_pk', ['project_id', 'incident_id'])
        .addForeignKeyConstraint(
          'incident_assignments_member_fk',
          ['project_id', 'user_id'],
          'project_members',
          ['project_id', 'user_id'],
          (constraint) => constraint.onDelete('cascade'),
        )
        .execute();
      await db.schema
        .createIndex('incident_assignments_member_idx')
        .on('incident_assignments')
        .columns(['project_id', 'user_id'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('incident_assignments').execute();
      await db.schema.alterTable('projects').dropColumn('ignored_wallet_codes').execute();
    },
  },
  // Releases and source maps (ADR 066): write tokens (`pfw_…`, uploads only, stored as sha256), each
  // release's uploaded maps (the files live in DATA_DIR/sourcemaps; here their metadata), and "resolve in
  // next release" on incident states.
  '012_releases_sourcemaps': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('write_tokens')
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('project_id', 'text', (col) => col.notNull().references('projects.id').onDelete('cascade'))
        .addColumn('name', 'text', (col) => col.notNull())
        .addColumn('token_hash', 'text', (col) => col.notNull().unique())
        .addColumn('created_by', 'text', (col) => col.notNull())
        .addColumn('created_at', 'text', (col) => col.notNull())
        .execute();
      await db.schema
        .createIndex('write_tokens_project_idx')
        .on('write_tokens')
        .column('project_id')
        .execute();
      await db.schema
        .createTable('sourcemap_releases')
        .addColumn('project_id', 'text', (col) => col.notNull().references('projects.id').onDelete('cascade'))
        .addColumn('release', 'text', (col) => col.notNull())
        .addColumn('bytes', 'bigint', (col) => col.notNull())
        .addColumn('created_at', 'text', (col) => col.notNull())
        .addColumn('updated_at', 'text', (col) => col.notNull())
        .addPrimaryKeyConstraint('sourcemap_releases_pk', ['project_id', 'release'])
        .execute();
      await db.schema
        .createTable('sourcemap_files')
        .addColumn('project_id', 'text', (col) => col.notNull())
        .addColumn('release', 'text', (col) => col.notNull())
        .addColumn('url', 'text', (col) => col.notNull())
        .addColumn('file', 'text', (col) => col.notNull())
        .addColumn('bytes', 'bigint', (col) => col.notNull())
        .addColumn('uploaded_at', 'text', (col) => col.notNull())
        .addPrimaryKeyConstraint('sourcemap_files_pk', ['project_id', 'release', 'url'])
        .addForeignKeyConstraint(
          'sourcemap_files_release_fk',
          ['project_id', 'release'],
          'sourcemap_releases',
          ['project_id', 'release'],
          (fk) => fk.onDelete('cascade'),
        )
        .execute();
      await db.schema.alterTable('incident_states').addColumn('resolved_in_release', 'text').execute();
      await db.schema
        .alterTable('incident_states')
        .addColumn('next_release', 'integer', (col) => col.notNull().defaultTo(0))
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('incident_states').dropColumn('next_release').execute();
      await db.schema.alterTable('incident_states').dropColumn('resolved_in_release').execute();
      for (const table of ['sourcemap_files', 'sourcemap_releases', 'write_tokens']) {
        await db.schema.dropTable(table).execute();
      }
    },
  },

  // The project's time zone (IANA name; days, weeks and dates follow it, stored events keep UTC) and its
  // annotations: dated notes shown on the time charts (docs/timezone.md, ADR 065).
  '013_timezone_annotations': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('projects')
        .addColumn('time_zone', 'text', (col) => col.notNull().defaultTo('UTC'))
        .execute();
      await db.schema
        .createTable('annotations')
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('project_id', 'text', (col) => col.notNull().references('projects.id').onDelete('cascade'))
        .addColumn('text', 'text', (col) => col.notNull())
        .addColumn('start_date', 'text', (col) => col.notNull())
        .addColumn('end_date', 'text')
        .addColumn('created_by', 'text', (col) => col.notNull())
        .addColumn('created_at', 'text', (col) => col.notNull())
        .execute();
      await db.schema
        .createIndex('annotations_project_start_idx')
        .on('annotations')
        .columns(['project_id', 'start_date', 'id'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('annotations').execute();
      await db.schema.alterTable('projects').dropColumn('time_zone').execute();
    },
  },

  // Custom funnels: a project's saved funnels, steps as JSON text (docs/funnels.md, ADR 070).
  '015_funnels': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('funnels')
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('project_id', 'text', (col) => col.notNull().references('projects.id').onDelete('cascade'))
        .addColumn('name', 'text', (col) => col.notNull())
        .addColumn('steps', 'text', (col) => col.notNull())
        .addColumn('window_hours', 'integer', (col) => col.notNull())
        .addColumn('created_by', 'text', (col) => col.notNull())
        .addColumn('created_at', 'text', (col) => col.notNull())
        .addColumn('updated_at', 'text', (col) => col.notNull())
        .execute();
      await db.schema
        .createIndex('funnels_project_idx')
        .on('funnels')
        .columns(['project_id', 'created_at', 'id'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('funnels').execute();
    },
  },

  // Goals: named conversions, a custom event (optionally with one property's value) or a page path pattern
  // (docs/goals.md, ADR 069).
  '014_goals': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('goals')
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('project_id', 'text', (col) => col.notNull().references('projects.id').onDelete('cascade'))
        .addColumn('name', 'text', (col) => col.notNull())
        .addColumn('kind', 'text', (col) => col.notNull())
        .addColumn('event_name', 'text')
        .addColumn('property_key', 'text')
        .addColumn('property_value', 'text')
        .addColumn('path_pattern', 'text')
        .addColumn('created_by', 'text', (col) => col.notNull())
        .addColumn('created_at', 'text', (col) => col.notNull())
        .execute();
      await db.schema
        .createIndex('goals_project_idx')
        .on('goals')
        .columns(['project_id', 'created_at'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('goals').execute();
    },
  },
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

/** Migration names by code unit (the order of their numbers). */
export function compareMigrationNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Every migration's name, in the order they are declared. */
export const MIGRATION_NAMES: readonly string[] = Object.keys(migrations);

/**
 * Migrations are written on parallel branches and merged in any order, each on its own tables: a store
 * that already ran a later-numbered one (011) still takes an earlier one that landed after it (010).
 */
const ORDER = {
  allowUnorderedMigrations: true,
  // Kysely orders the migrations it is given by code unit (`sort()`) but the ones a store ran by
  // `localeCompare`, whose first call loads ICU's collation data: 2 MB of the `node` binary kept resident
  // by every server for its lifetime (docs/decisions/099). Both by code unit here: for every migration's
  // name the two orders agree (test/startup-footprint.test.ts checks them all).
  nameComparator: compareMigrationNames,
} as const;

/** Brings the account store up to date; called at start-up before the server listens. */
// biome-ignore lint/suspicious/noExplicitAny: the Migrator works on any schema; migrations are untyped by design.
export async function migrateToLatest(db: Kysely<any>): Promise<void> {
  const migrator = new Migrator({ db, provider, ...ORDER });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error || failed) {
    const cause = error instanceof Error ? error.message : String(error ?? '');
    throw new Error(`Database migration ${failed?.migrationName ?? ''} failed: ${cause}`.trim());
  }
}

/** Brings the account store up to `name` exactly (tests of a migration start from the schema before it). */
// biome-ignore lint/suspicious/noExplicitAny: as above.
export async function migrateTo(db: Kysely<any>, name: string): Promise<void> {
  const { error } = await new Migrator({ db, provider, ...ORDER }).migrateTo(name);
  if (error) throw error instanceof Error ? error : new Error(String(error));
}
