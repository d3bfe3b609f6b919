import {
  type AlertFiring,
  type AlertPreviewFiring,
  type AlertRule,
  type AlertRuleCondition,
  AlertRuleConditionSchema,
  type AlertRulePreviewInput,
  type CreateAlertRule,
  DEFAULT_COOLDOWN_MINUTES,
  MAX_ALERT_RULES_PER_PROJECT,
  type UpdateAlertRule,
} from '@polyflow/contracts/alert-rules';
import { badRequest, notFound, zodIssues } from '../../errors.ts';
import type { Actor, ProjectAccess } from '../../lib/access.ts';
import type { Clock } from '../../lib/clock.ts';
import { isId, newId } from '../../lib/ids.ts';
import type { AlertQuestions } from '../event-store/alert-questions.ts';
import { createEvaluation, type IncidentFacts } from './evaluation.ts';
import type { ChannelDirectory, Notify } from './notice.ts';
import { previewRule } from './preview.ts';
import type { AlertRuleStore, StoredRule } from './store.ts';

export type AlertRuleService = ReturnType<typeof createAlertRuleService>;

export type AlertRuleServiceDeps = {
  store: AlertRuleStore;
  projects: ProjectAccess;
  eventStore: AlertQuestions;
  incidents: IncidentFacts;
  channels: ChannelDirectory;
  notify: Notify;
  clock: Clock;
  publicUrl: string;
  /** ALERT_EVALUATION_INTERVAL_SECONDS in ms: the preview replays the evaluation at this step. */
  evaluationIntervalMs: number;
};

const listed = ({ projectId: _p, projectName: _n, ...rule }: StoredRule): AlertRule => rule;

/**
 * Alert rules (docs/alerts.md#rules): every member lists them and their firings, admins and the owner
 * create, change, pause and delete them. `evaluate` is one evaluation of every rule (the background job
 * runs it on one node at a time).
 */
export function createAlertRuleService(deps: AlertRuleServiceDeps) {
  const { store, projects, clock } = deps;
  const evaluation = createEvaluation(deps);

  /** Refuses channel ids that are not this project's channels (another project's look unknown too). */
  async function checkChannels(projectId: string, channelIds: readonly string[]): Promise<void> {
    if (channelIds.length === 0) return;
    const known = new Set(await deps.channels.channelIdsOf(projectId, channelIds));
    const unknown = channelIds.filter((id) => !known.has(id));
    if (unknown.length > 0)
      throw badRequest(`Unknown alert channel: ${unknown[0]}.`, [
        { path: 'channelIds', message: `no channel ${unknown.join(', ')} in this project` },
      ]);
  }

  async function ruleOf(projectId: string, ruleId: string): Promise<StoredRule> {
    const rule = isId(ruleId) ? await store.find(projectId, ruleId) : null;
    if (!rule) throw notFound('Alert rule not found.');
    return rule;
  }

  return {
    async create(actor: Actor, projectId: string, input: CreateAlertRule): Promise<AlertRule> {
      await projects.getProjectFor(actor.id, projectId, 'manage');
      if ((await store.countByProject(projectId)) >= MAX_ALERT_RULES_PER_PROJECT)
        throw badRequest(`A project can have at most ${MAX_ALERT_RULES_PER_PROJECT} alert rules.`);
      await checkChannels(projectId, input.channelIds);
      const now = clock().toISOString();
      const id = newId();
      await store.insert({
        id,
        project_id: projectId,
        name: input.name,
        kind: input.kind,
        params: JSON.stringify(input.params),
        channel_ids: JSON.stringify(input.channelIds),
        cooldown_minutes: input.cooldownMinutes ?? DEFAULT_COOLDOWN_MINUTES,
        paused: 0,
        created_at: now,
        updated_at: now,
      });
      return listed(await ruleOf(projectId, id));
    },

    async list(userId: string, projectId: string): Promise<AlertRule[]> {
      await projects.getProjectFor(userId, projectId);
      return (await store.listByProject(projectId)).map(listed);
    },

    async update(
      actor: Actor,
      projectId: string,
      ruleId: string,
      patch: UpdateAlertRule,
    ): Promise<AlertRule> {
      await projects.getProjectFor(actor.id, projectId, 'manage');
      const rule = await ruleOf(projectId, ruleId);
      let params: string | undefined;
      if (patch.params !== undefined) {
        const parsed = AlertRuleConditionSchema.safeParse({ kind: rule.kind, params: patch.params });
        if (!parsed.success) throw badRequest('Invalid request body.', zodIssues(parsed.error));
        params = JSON.stringify(parsed.data.params);
      }
      if (patch.channelIds) await checkChannels(projectId, patch.channelIds);
      const isConditionChanged = params !== undefined && params !== JSON.stringify(rule.params);
      await store.update(
        projectId,
        ruleId,
        {
          ...(patch.name !== undefined ? { name: patch.name } : {}),
          ...(params !== undefined ? { params } : {}),
          ...(patch.channelIds ? { channel_ids: JSON.stringify(patch.channelIds) } : {}),
          ...(patch.cooldownMinutes !== undefined ? { cooldown_minutes: patch.cooldownMinutes } : {}),
          ...(patch.paused !== undefined ? { paused: patch.paused ? 1 : 0 } : {}),
          updated_at: clock().toISOString(),
        },
        isConditionChanged,
      );
      return listed(await ruleOf(projectId, ruleId));
    },

    async remove(actor: Actor, projectId: string, ruleId: string): Promise<void> {
      await projects.getProjectFor(actor.id, projectId, 'manage');
      if (!isId(ruleId) || !(await store.delete(projectId, ruleId))) throw notFound('Alert rule not found.');
    },

    async firings(userId: string, projectId: string, ruleId: string): Promise<AlertFiring[]> {
      await projects.getProjectFor(userId, projectId);
      const rule = await ruleOf(projectId, ruleId);
      return store.firingsOf(rule.id);
    },

    /** What a rule would have fired over the last 7 days (every member may ask: it reads, changes nothing). */
    async preview(
      userId: string,
      projectId: string,
      input: AlertRulePreviewInput,
    ): Promise<AlertPreviewFiring[]> {
      const project = await projects.getProjectFor(userId, projectId);
      const { cooldownMinutes = DEFAULT_COOLDOWN_MINUTES, ...condition } = input;
      return previewRule(deps, {
        projectId,
        projectCreatedMs: Date.parse(project.createdAt),
        condition: condition as AlertRuleCondition,
        cooldownMinutes,
        nowMs: clock().getTime(),
        stepMs: deps.evaluationIntervalMs,
      });
    },

    /** One evaluation of every rule (the background job; tests call it with their clock). */
    evaluate: evaluation.evaluate,
  };
}
