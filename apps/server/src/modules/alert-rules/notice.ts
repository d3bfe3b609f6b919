import type { AlertRuleKind, AlertSubject } from '@polyflow/contracts/alert-rules';

/**
 * What a rule hands to the channels (issue 27's shared contract; defined in contracts/alert-channels.ts
 * as `AlertNoticeSchema` by the channels module). A copy of its type until both meet in app.ts: this
 * module imports no other alert module.
 */
export type AlertNotice = {
  id: string;
  type: 'alert.triggered' | 'alert.resolved' | 'test';
  project: { id: string; name: string };
  rule: { id: string; name: string; kind: AlertRuleKind } | null;
  at: string;
  subject: AlertSubject;
  figures: Record<string, number | string>;
  /** Absolute console URL of the relevant screen (PUBLIC_URL). */
  url: string;
};

/** The channels' side: durable once it resolves (one delivery per channel stored). */
export type Notify = (notice: AlertNotice, channelIds: readonly string[]) => Promise<void>;

/** Which of `channelIds` are channels of the project (another project's, or a deleted one, are not). */
export type ChannelDirectory = {
  channelIdsOf(projectId: string, channelIds: readonly string[]): Promise<string[]>;
};
