import type {
  ReportKind,
  ReportSubscription,
  ReportSubscriptionList,
  UpdateReportSubscription,
} from '@polyflow/contracts/reports';
import { ReportKinds } from '@polyflow/contracts/reports';
import type { Actor, ProjectAccess } from '../../lib/access.ts';
import type { Clock } from '../../lib/clock.ts';
import { groupBy } from '../../lib/group-by.ts';
import { isId } from '../../lib/ids.ts';
import type { MailService } from '../mail/service.ts';
import { gatherReport, type ReportContent, type ReportSources } from './content.ts';
import { reportEmail } from './email.ts';
import { lastCompletedPeriod, periodTitle, type ReportPeriod } from './periods.ts';
import type { ReportStore, Subscriber } from './store.ts';
import { readUnsubscribeToken, unsubscribeToken } from './unsubscribe-token.ts';

const HOUR_MS = 3_600_000;
/** A report goes out on the period's first following day (Monday, the 1st), not later (docs/reports.md). */
export const SEND_WINDOW_MS = 24 * HOUR_MS;
/** How long a node holds a report it is building; after it another node (or a restart) takes it over. */
export const CLAIM_MS = 10 * 60_000;

export type ReportServiceDeps = {
  store: ReportStore;
  projects: ProjectAccess;
  mail: Pick<MailService, 'enqueueWithin' | 'flush'>;
  sources: ReportSources;
  clock: Clock;
  /** Signs unsubscribe links (the server's JWT secret). */
  secret: string;
  publicUrl: string;
  /** The zone a project's weeks and months are cut in; UTC until projects have one. */
  timeZoneOf?: (projectId: string) => Promise<string>;
  logger: { info(details: object, message: string): void; error(details: object, message: string): void };
};

export type SendOutcome = { period: ReportPeriod; sent: number; alreadySent: number };

/** What the unsubscribe page says. */
export type UnsubscribeOutcome =
  | { status: 'turned-off' | 'already-off'; kind: ReportKind; projectName: string; email: string }
  | { status: 'invalid' };

export type ReportService = ReturnType<typeof createReportService>;

/** Each member's report choices, and sending the reports once per member and period (docs/reports.md). */
export function createReportService(deps: ReportServiceDeps) {
  const { store, projects, mail, sources, clock, secret, publicUrl, logger } = deps;
  const timeZoneOf = deps.timeZoneOf ?? (async () => 'UTC');

  const unsubscribeUrl = (target: { projectId: string; userId: string; kind: ReportKind }) =>
    `${publicUrl}/api/v1/reports/unsubscribe?token=${encodeURIComponent(unsubscribeToken(secret, target))}`;

  /**
   * The reports of one project and period to every subscribed member not yet sent one. Each member's
   * report is claimed first, then marked sent in the transaction that puts its email in the outbox.
   */
  async function sendPeriod(
    projectId: string,
    period: ReportPeriod,
    timeZone: string,
    subscribers: readonly Subscriber[],
  ): Promise<SendOutcome> {
    const periodStart = new Date(period.fromMs).toISOString();
    const sent = await store.sentTo(projectId, period.kind, periodStart);
    let content: ReportContent | undefined;
    let count = 0;
    for (const subscriber of subscribers) {
      if (sent.has(subscriber.userId)) continue;
      const now = clock();
      const claim = await store.claim(
        { projectId, userId: subscriber.userId, kind: period.kind, periodStart },
        now.toISOString(),
        new Date(now.getTime() + CLAIM_MS).toISOString(),
      );
      if (!claim) continue;
      try {
        // Read as this member: the services check membership, and one reading serves every member.
        content ??= await gatherReport(sources, subscriber.userId, projectId, period);
        const email = reportEmail({
          to: subscriber.email,
          projectName: subscriber.projectName,
          content,
          consoleUrl: `${publicUrl}/console/${projectId}`,
          unsubscribeUrl: unsubscribeUrl({ projectId, userId: subscriber.userId, kind: period.kind }),
          timeZone,
        });
        const isMine = await store.markSent(claim, clock().toISOString(), (trx) =>
          mail.enqueueWithin(trx, email),
        );
        if (isMine) count += 1;
      } catch (error) {
        await store.release(claim, clock().toISOString()).catch(() => undefined);
        throw error;
      }
    }
    if (count > 0) void mail.flush();
    return { period, sent: count, alreadySent: sent.size };
  }

  return {
    async list(actor: Actor, projectId: string): Promise<ReportSubscriptionList> {
      await projects.getProjectFor(actor.id, projectId);
      return { reportSubscriptions: await store.listSubscriptions(projectId) };
    },

    /** The caller's own choice: any member may change their own, whatever their role. */
    async updateMine(
      actor: Actor,
      projectId: string,
      choice: UpdateReportSubscription,
    ): Promise<ReportSubscription> {
      await projects.getProjectFor(actor.id, projectId);
      await store.upsert(projectId, actor.id, choice, clock().toISOString());
      const email = (await store.userEmail(actor.id)) ?? actor.email;
      return { userId: actor.id, email, weekly: choice.weekly, monthly: choice.monthly };
    },

    /** The unsubscribe link: turns off the one kind of report it names, without a session. */
    async unsubscribe(token: unknown): Promise<UnsubscribeOutcome> {
      const target = readUnsubscribeToken(secret, token);
      if (!target) return { status: 'invalid' };
      const [projectName, email] = await Promise.all([
        store.projectName(target.projectId),
        store.userEmail(target.userId),
      ]);
      // A deleted project or account: the link was genuine, and nothing is sent any more.
      if (projectName === null || email === null) return { status: 'invalid' };
      const wasOn = await store.turnOff(target.projectId, target.userId, target.kind, clock().toISOString());
      if (wasOn)
        logger.info({ projectId: target.projectId, kind: target.kind }, 'report turned off by its link');
      return { status: wasOn ? 'turned-off' : 'already-off', kind: target.kind, projectName, email };
    },

    /** A member left or was removed (members service): their choices for the project go. */
    forgetMember: (userId: string, projectId: string) => store.forgetMember(projectId, userId),

    /**
     * One scheduler pass: for each kind and project with subscribers, the last completed period's reports,
     * while within a day of its end. A project whose reports fail is logged and tried again next pass.
     */
    async sendDue(): Promise<SendOutcome[]> {
      const outcomes: SendOutcome[] = [];
      for (const kind of ReportKinds) {
        for (const [projectId, subscribers] of groupBy(
          await store.subscribers(kind),
          (subscriber) => subscriber.projectId,
        )) {
          const timeZone = await timeZoneOf(projectId);
          const nowMs = clock().getTime();
          const period = lastCompletedPeriod(kind, nowMs, timeZone);
          if (nowMs >= period.toMs + SEND_WINDOW_MS) continue;
          try {
            const outcome = await sendPeriod(projectId, period, timeZone, subscribers);
            if (outcome.sent > 0) logger.info({ projectId, kind, sent: outcome.sent }, 'reports sent');
            outcomes.push(outcome);
          } catch (error) {
            logger.error(
              { err: error, projectId, kind },
              'reports could not be sent; retrying at the next pass',
            );
          }
        }
      }
      return outcomes;
    },

    /**
     * The last completed period's report of one project now, to its subscribed members not yet sent it,
     * whatever the day (the admin CLI's `send-report`; docs/reports.md). Once per member and period still.
     */
    async sendNow(
      projectId: string,
      kind: ReportKind,
    ): Promise<(SendOutcome & { subscribers: number; title: string }) | null> {
      if (!isId(projectId) || (await store.projectName(projectId)) === null) return null;
      const subscribers = await store.subscribers(kind, projectId);
      const timeZone = await timeZoneOf(projectId);
      const period = lastCompletedPeriod(kind, clock().getTime(), timeZone);
      const outcome = await sendPeriod(projectId, period, timeZone, subscribers);
      return { ...outcome, subscribers: subscribers.length, title: periodTitle(period, timeZone) };
    },
  };
}
