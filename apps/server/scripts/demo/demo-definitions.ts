import type { CreateAnnotation } from '@polyflow/contracts/annotations';
import type { CreateFunnel } from '@polyflow/contracts/funnels';
import type { GoalInput } from '@polyflow/contracts/goals';
import type { AccountDb } from '../../src/db/database.ts';
import type { Actor } from '../../src/lib/access.ts';
import type { Clock } from '../../src/lib/clock.ts';
import { createAnnotationService } from '../../src/modules/annotations/service.ts';
import { createAnnotationStore } from '../../src/modules/annotations/store.ts';
import { createAuditLogService } from '../../src/modules/audit-log/service.ts';
import { createAuditLogStore } from '../../src/modules/audit-log/store.ts';
import type { FunnelQuestions } from '../../src/modules/event-store/funnel-questions.ts';
import type { GoalQuestions } from '../../src/modules/event-store/goal-questions.ts';
import { createFunnels } from '../../src/modules/funnels/module.ts';
import { createGoals } from '../../src/modules/goals/module.ts';
import { createProjectAccess } from '../../src/modules/project-access/service.ts';
import { createProjectStore } from '../../src/modules/project-access/store.ts';
import { badDeployOf } from './generate-events.ts';

/** The goals a DEX team would set on the demo's custom events and pages (docs/goals.md). */
export const DEMO_GOALS: GoalInput[] = [
  { name: 'Requested a swap quote', kind: 'event', eventName: 'quote_requested' },
  {
    name: 'Chose a route to Base',
    kind: 'event',
    eventName: 'bridge_route_selected',
    propertyKey: 'to',
    propertyValue: 'base',
  },
  { name: 'Opened the portfolio', kind: 'path', pathPattern: '/portfolio' },
];

/** The demo's saved funnels (docs/funnels.md): a page, the dapp's own event, a connection, a stage. */
export const DEMO_FUNNELS: CreateFunnel[] = [
  {
    name: 'Swap page to confirmed swap',
    windowHours: 24,
    steps: [
      { kind: 'page', path: '/swap' },
      { kind: 'event', name: 'quote_requested' },
      { kind: 'wallet_connected' },
      { kind: 'transaction', stage: 'confirmed' },
    ],
  },
  {
    name: 'Bridge route to a sent transaction',
    windowHours: 72,
    steps: [
      { kind: 'event', name: 'bridge_route_selected' },
      { kind: 'wallet_connected' },
      { kind: 'transaction', stage: 'submitted' },
    ],
  },
];

const isoDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The annotations on the demo's charts: the deploy behind the incident burst, and its fix. */
export function demoAnnotations(endMs: number): CreateAnnotation[] {
  const deploy = badDeployOf(endMs);
  return [
    {
      text: 'Release v2.4: portfolio page broke (errors until the fix)',
      startDate: isoDate(deploy.fromMs),
      endDate: isoDate(deploy.toMs - 1),
    },
    { text: 'Release v2.4.1: portfolio fix', startDate: isoDate(deploy.toMs) },
  ];
}

/**
 * Saves the demo's goals, funnels and annotations in its project as its owner would, through the same
 * services as the API (so each is in the audit log), or refreshes those already there by name or text.
 */
export async function ensureDemoDefinitions(
  db: AccountDb,
  options: {
    actor: Actor;
    projectId: string;
    clock: Clock;
    eventStore: GoalQuestions & FunnelQuestions;
    endMs: number;
  },
): Promise<void> {
  const { actor, projectId, clock, eventStore } = options;
  const projects = createProjectAccess({ store: createProjectStore(db) });
  const audit = createAuditLogService({ store: createAuditLogStore(db), projects, clock });
  const goals = createGoals({ db, projects, audit, eventStore, clock }).service;
  const funnels = createFunnels({ db, projects, audit, eventStore, clock }).service;
  const annotations = createAnnotationService({ store: createAnnotationStore(db), projects, clock, audit });

  const savedGoals = await goals.list(actor.id, projectId);
  for (const goal of DEMO_GOALS) {
    const saved = savedGoals.find((each) => each.name === goal.name);
    if (saved) await goals.update(actor, projectId, saved.id, goal);
    else await goals.create(actor, projectId, goal);
  }
  const savedFunnels = await funnels.list(actor.id, projectId);
  for (const funnel of DEMO_FUNNELS) {
    const saved = savedFunnels.find((each) => each.name === funnel.name);
    if (saved) await funnels.update(actor, projectId, saved.id, funnel);
    else await funnels.create(actor, projectId, funnel);
  }
  // The dates follow the data's end, which moves with each seed: an annotation of the same text moves too.
  const savedAnnotations = await annotations.list(actor.id, projectId);
  for (const annotation of demoAnnotations(options.endMs)) {
    const saved = savedAnnotations.find((each) => each.text === annotation.text);
    if (saved)
      await annotations.update(actor, projectId, saved.id, {
        startDate: annotation.startDate,
        endDate: annotation.endDate ?? null,
      });
    else await annotations.create(actor, projectId, annotation);
  }
}
