import type { AlertFiring, AlertRule, AlertSubject } from '@polyflow/contracts/alert-rules';
import { AlertRuleSchema, AlertSubjectSchema } from '@polyflow/contracts/alert-rules';
import { z } from 'zod';
import type { AccountDb } from '../../db/database.ts';
import { inTransaction } from '../../db/database.ts';
import type { AlertFiringsTable, AlertRuleStatesTable, AlertRulesTable } from '../../db/schema.ts';

export type AlertRuleStore = ReturnType<typeof createAlertRuleStore>;

/** A rule as evaluation reads it: the listed rule and its project's name. */
export type StoredRule = AlertRule & { projectId: string; projectName: string };

/** A rule's state for one subject (`project`, or an incident id). */
export type SubjectState = { isFiring: boolean; lastFiredAtMs: number | null; marker: string | null };

/** A firing to store, with the state of its subject after it. */
export type NewFiring = {
  id: string;
  ruleId: string;
  type: 'triggered' | 'resolved';
  subject: AlertSubject;
  figures: Record<string, number | string>;
  at: string;
};

export type StateChange = { ruleId: string; subjectId: string; state: SubjectState };

const RuleRow = z.object({
  id: z.string(),
  project_id: z.string(),
  name: z.string(),
  kind: z.string(),
  params: z.string(),
  channel_ids: z.string(),
  cooldown_minutes: z.coerce.number(),
  paused: z.coerce.number(),
  created_at: z.string(),
  updated_at: z.string(),
  firing: z.coerce.number().nullable(),
  last_fired_at: z.string().nullable(),
  project_name: z.string(),
});

function toRule(raw: unknown): StoredRule {
  const row = RuleRow.parse(raw);
  const rule = AlertRuleSchema.parse({
    id: row.id,
    name: row.name,
    kind: row.kind,
    params: JSON.parse(row.params),
    channelIds: JSON.parse(row.channel_ids),
    cooldownMinutes: row.cooldown_minutes,
    paused: row.paused === 1,
    state: (row.firing ?? 0) > 0 ? 'firing' : 'ok',
    lastFiredAt: row.last_fired_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  });
  return { ...rule, projectId: row.project_id, projectName: row.project_name };
}

const FiringRow = z.object({
  id: z.string(),
  rule_id: z.string(),
  type: z.enum(['triggered', 'resolved']),
  subject: z.string(),
  figures: z.string(),
  at: z.string(),
});

const toFiring = (raw: unknown): AlertFiring => {
  const row = FiringRow.parse(raw);
  return {
    id: row.id,
    ruleId: row.rule_id,
    type: row.type,
    subject: AlertSubjectSchema.parse(JSON.parse(row.subject)),
    figures: JSON.parse(row.figures),
    at: row.at,
  };
};

/** At most this many firings listed per rule, newest first. */
export const FIRINGS_LISTED = 200;

/** All SQL about alert rules, their states and firings (accounts store: SQLite or PostgreSQL). */
export function createAlertRuleStore(db: AccountDb) {
  function rules() {
    return db
      .selectFrom('alert_rules as r')
      .innerJoin('projects as p', 'p.id', 'r.project_id')
      .select([
        'r.id',
        'r.project_id',
        'r.name',
        'r.kind',
        'r.params',
        'r.channel_ids',
        'r.cooldown_minutes',
        'r.paused',
        'r.created_at',
        'r.updated_at',
        'p.name as project_name',
      ])
      .select((eb) => [
        eb
          .selectFrom('alert_rule_states as s')
          .whereRef('s.rule_id', '=', 'r.id')
          .select((inner) => inner.fn.max('s.is_firing').as('m'))
          .as('firing'),
        // Its latest trigger from the firings, which a change of params (new states) leaves in place.
        eb
          .selectFrom('alert_firings as f')
          .whereRef('f.rule_id', '=', 'r.id')
          .where('f.type', '=', 'triggered')
          .select((inner) => inner.fn.max('f.at').as('m'))
          .as('last_fired_at'),
      ]);
  }

  return {
    async insert(row: AlertRulesTable): Promise<void> {
      await db.insertInto('alert_rules').values(row).execute();
    },

    async countByProject(projectId: string): Promise<number> {
      const row = await db
        .selectFrom('alert_rules')
        .select((eb) => eb.fn.countAll<string | number>().as('count'))
        .where('project_id', '=', projectId)
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },

    async listByProject(projectId: string): Promise<StoredRule[]> {
      const rows = await rules()
        .where('r.project_id', '=', projectId)
        .orderBy('r.created_at')
        .orderBy('r.id')
        .execute();
      return rows.map(toRule);
    },

    async find(projectId: string, ruleId: string): Promise<StoredRule | null> {
      const row = await rules()
        .where('r.project_id', '=', projectId)
        .where('r.id', '=', ruleId)
        .executeTakeFirst();
      return row ? toRule(row) : null;
    },

    /** Every rule that is not paused, of every project: what one evaluation reads. */
    async activeRules(): Promise<StoredRule[]> {
      const rows = await rules().where('r.paused', '=', 0).orderBy('r.created_at').orderBy('r.id').execute();
      return rows.map(toRule);
    },

    async update(
      projectId: string,
      ruleId: string,
      changes: Partial<
        Pick<AlertRulesTable, 'name' | 'params' | 'channel_ids' | 'cooldown_minutes' | 'paused'>
      > & {
        updated_at: string;
      },
      /** A changed condition starts over: its subjects' states are forgotten. */
      resetStates: boolean,
    ): Promise<boolean> {
      return inTransaction(db, async (trx) => {
        const result = await trx
          .updateTable('alert_rules')
          .set(changes)
          .where('project_id', '=', projectId)
          .where('id', '=', ruleId)
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) === 0) return false;
        if (resetStates) await trx.deleteFrom('alert_rule_states').where('rule_id', '=', ruleId).execute();
        return true;
      });
    },

    /** Whether there was such a rule; its states and firings go with it. */
    async delete(projectId: string, ruleId: string): Promise<boolean> {
      const result = await db
        .deleteFrom('alert_rules')
        .where('project_id', '=', projectId)
        .where('id', '=', ruleId)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    async firingsOf(ruleId: string): Promise<AlertFiring[]> {
      const rows = await db
        .selectFrom('alert_firings')
        .select(['id', 'rule_id', 'type', 'subject', 'figures', 'at'])
        .where('rule_id', '=', ruleId)
        .orderBy('at', 'desc')
        .orderBy('id', 'desc')
        .limit(FIRINGS_LISTED)
        .execute();
      return rows.map(toFiring);
    },

    /** The states of the rules' subjects: rule id → subject id → state. */
    async statesOf(ruleIds: readonly string[]): Promise<Map<string, Map<string, SubjectState>>> {
      const states = new Map<string, Map<string, SubjectState>>();
      for (let start = 0; start < ruleIds.length; start += 500) {
        const rows: AlertRuleStatesTable[] = await db
          .selectFrom('alert_rule_states')
          .selectAll()
          .where('rule_id', 'in', ruleIds.slice(start, start + 500))
          .execute();
        for (const row of rows) {
          const byRule = states.get(row.rule_id) ?? new Map<string, SubjectState>();
          byRule.set(row.subject_id, {
            isFiring: Number(row.is_firing) === 1,
            lastFiredAtMs: row.last_fired_at === null ? null : Date.parse(row.last_fired_at),
            marker: row.marker,
          });
          states.set(row.rule_id, byRule);
        }
      }
      return states;
    },

    /**
     * One evaluation's outcome in one transaction: the firings (not yet notified) and the subjects' new
     * states. A rule deleted meanwhile loses its part (its foreign key would refuse it).
     */
    async record(firings: readonly NewFiring[], changes: readonly StateChange[]): Promise<void> {
      if (firings.length === 0 && changes.length === 0) return;
      const ruleIds = [...new Set([...firings.map((f) => f.ruleId), ...changes.map((c) => c.ruleId)])];
      await inTransaction(db, async (trx) => {
        const living = new Set<string>();
        for (let start = 0; start < ruleIds.length; start += 500) {
          const rows = await trx
            .selectFrom('alert_rules')
            .select('id')
            .where('id', 'in', ruleIds.slice(start, start + 500))
            .execute();
          for (const row of rows) living.add(row.id);
        }
        for (const firing of firings) {
          if (!living.has(firing.ruleId)) continue;
          const row: AlertFiringsTable = {
            id: firing.id,
            rule_id: firing.ruleId,
            type: firing.type,
            subject: JSON.stringify(firing.subject),
            figures: JSON.stringify(firing.figures),
            at: firing.at,
            notified_at: null,
          };
          await trx.insertInto('alert_firings').values(row).execute();
        }
        for (const change of changes) {
          if (!living.has(change.ruleId)) continue;
          const values = {
            rule_id: change.ruleId,
            subject_id: change.subjectId,
            is_firing: change.state.isFiring ? 1 : 0,
            last_fired_at:
              change.state.lastFiredAtMs === null ? null : new Date(change.state.lastFiredAtMs).toISOString(),
            marker: change.state.marker,
          };
          await trx
            .insertInto('alert_rule_states')
            .values(values)
            .onConflict((conflict) =>
              conflict.columns(['rule_id', 'subject_id']).doUpdateSet({
                is_firing: values.is_firing,
                last_fired_at: values.last_fired_at,
                marker: values.marker,
              }),
            )
            .execute();
        }
      });
    },

    /** Firings whose notice the channels do not have yet (a crash or a failure after they were stored). */
    async unnotified(limit: number): Promise<(AlertFiring & { rule: StoredRule })[]> {
      const rows = await db
        .selectFrom('alert_firings')
        .select(['id', 'rule_id', 'type', 'subject', 'figures', 'at'])
        .where('notified_at', 'is', null)
        .orderBy('at')
        .limit(limit)
        .execute();
      const result: (AlertFiring & { rule: StoredRule })[] = [];
      for (const raw of rows) {
        const firing = toFiring(raw);
        const ruleRow = await rules().where('r.id', '=', firing.ruleId).executeTakeFirst();
        if (ruleRow) result.push({ ...firing, rule: toRule(ruleRow) });
      }
      return result;
    },

    async markNotified(firingId: string, at: string): Promise<void> {
      await db.updateTable('alert_firings').set({ notified_at: at }).where('id', '=', firingId).execute();
    },
  };
}
