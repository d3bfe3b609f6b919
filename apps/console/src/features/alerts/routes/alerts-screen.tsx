import type { CreatedAlertChannel } from '@polyflow/contracts/alert-channels';
import type { AlertRule } from '@polyflow/contracts/alert-rules';
import type { Project } from '@polyflow/contracts/projects';
import { useRef, useState } from 'react';
import { DOCS } from '../../../components/docs-links';
import { PageHeader } from '../../../components/page-header';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { EmptyState } from '../../../components/ui/empty-state';
import { BellRing, Plus, Radio } from '../../../components/ui/icons';
import { Spinner } from '../../../components/ui/spinner';
import { announce, focusSoon } from '../../../lib/announce';
import { countOf } from '../../../lib/format';
import { canManage, ROLE_LABELS } from '../../../lib/roles';
import { useAlertChannels } from '../api/get-alert-channels';
import { useAlertRules } from '../api/get-alert-rules';
import { useProjectMembers } from '../api/get-project-members';
import { ChannelForm } from '../components/channel-form';
import { ChannelList } from '../components/channel-list';
import { ReportSubscriptions } from '../components/report-subscriptions';
import { RuleForm } from '../components/rule-form';
import { RuleList } from '../components/rule-list';
import { WebhookSecret } from '../components/webhook-secret';

function Loading({ what }: { what: string }) {
  return (
    <p className="flex items-center gap-2 text-sm text-slate-600">
      <Spinner /> Loading {what}…
    </p>
  );
}

/**
 * Alerts (issue 27): rules and what they would have fired, the channels notices go to with their delivery
 * logs, and who gets the email reports. Viewers see all of it and change only their own reports.
 */
export function AlertsScreen({ project, email }: { project: Project; email: string }) {
  const rules = useAlertRules(project.id);
  const channels = useAlertChannels(project.id);
  const members = useProjectMembers(project.id);
  const [isAddingRule, setIsAddingRule] = useState(false);
  const [isAddingChannel, setIsAddingChannel] = useState(false);
  const [secretOf, setSecretOf] = useState<CreatedAlertChannel | null>(null);
  const mayChange = canManage(project.role);
  const channelList = channels.data?.alertChannels ?? [];
  const ruleList = rules.data?.alertRules ?? [];
  const memberList = members.data?.members ?? [];

  const newRuleButton = useRef<HTMLButtonElement>(null);
  const newChannelButton = useRef<HTMLButtonElement>(null);
  const ruleFormBox = useRef<HTMLDivElement>(null);
  const channelFormBox = useRef<HTMLDivElement>(null);
  const rulesCard = useRef<HTMLElement>(null);
  const channelsCard = useRef<HTMLElement>(null);
  const firstFieldOf = (box: HTMLElement | null) =>
    box?.querySelector<HTMLElement>('input, select, textarea');
  /** A control of a listed rule or channel (lists mark their items with data-item-key). */
  const controlIn = (card: HTMLElement | null, id: string, control: string) =>
    card?.querySelector<HTMLElement>(`[data-item-key="${CSS.escape(id)}"] ${control}`);

  // New rule and New channel give their place to the form: focus its first field. When the form goes,
  // focus the saved item, or the New button that is back.
  const startRule = () => {
    setIsAddingRule(true);
    focusSoon(() => firstFieldOf(ruleFormBox.current));
  };
  const onRuleDone = (saved?: AlertRule) => {
    setIsAddingRule(false);
    if (saved) announce('Rule saved');
    focusSoon(
      () => (saved ? controlIn(rulesCard.current, saved.id, '[data-edit]') : null) ?? newRuleButton.current,
    );
  };
  const startChannel = () => {
    setIsAddingChannel(true);
    focusSoon(() => firstFieldOf(channelFormBox.current));
  };
  const onChannelCreated = (channel: CreatedAlertChannel) => {
    setIsAddingChannel(false);
    announce('Channel saved');
    if (channel.secret) {
      // Shown this once: focus its heading so that it is read before anything else.
      setSecretOf(channel);
      focusSoon(() => document.getElementById('webhook-secret-title'));
    } else {
      focusSoon(
        () => controlIn(channelsCard.current, channel.id, '[data-delete]') ?? newChannelButton.current,
      );
    }
  };
  const closeChannelForm = () => {
    setIsAddingChannel(false);
    focusSoon(() => newChannelButton.current);
  };
  const dismissSecret = (channelId: string) => {
    setSecretOf(null);
    focusSoon(() => controlIn(channelsCard.current, channelId, '[data-delete]') ?? newChannelButton.current);
  };

  return (
    <div className="flex animate-panel flex-col gap-4">
      <PageHeader
        eyebrow={project.name}
        title="Alerts"
        help={{ href: DOCS.alerts, topic: 'alerts and reports' }}
      >
        <p className="text-sm text-slate-600">
          Your role: <strong>{ROLE_LABELS[project.role]}</strong>
          {!mayChange && ' (you see the rules and channels; admins change them)'}
        </p>
      </PageHeader>

      <Card ref={rulesCard} aria-labelledby="rules-title">
        <CardHeader
          titleId="rules-title"
          eyebrow="Rules"
          title={rules.data ? countOf(ruleList.length, 'rule') : 'Rules'}
          description="Checked every minute (by default). A rule that fired waits its cooldown before firing again for the same project or incident."
          actions={
            mayChange && !isAddingRule ? (
              <Button ref={newRuleButton} onClick={startRule}>
                <Plus aria-hidden="true" className="size-4" />
                New rule
              </Button>
            ) : undefined
          }
        />
        <div className="flex flex-col gap-4">
          {isAddingRule && (
            <div ref={ruleFormBox} className="rounded-xl p-4 ring-1 ring-inset ring-indigo-200">
              <RuleForm projectId={project.id} channels={channelList} onDone={onRuleDone} />
            </div>
          )}
          {rules.isPending ? (
            <Loading what="the rules" />
          ) : rules.isError ? (
            <Alert tone="error">Could not load the rules: {rules.error.message}</Alert>
          ) : ruleList.length === 0 ? (
            isAddingRule ? null : (
              <EmptyState
                icon={<BellRing aria-hidden="true" className="size-6" />}
                title="No alert rules yet"
              >
                {mayChange
                  ? 'Create a rule to hear about failing transactions, new incidents or a silent SDK without watching the console.'
                  : 'An admin of this project can create rules.'}
              </EmptyState>
            )
          ) : (
            <RuleList projectId={project.id} rules={ruleList} channels={channelList} canChange={mayChange} />
          )}
        </div>
      </Card>

      <Card ref={channelsCard} aria-labelledby="channels-title">
        <CardHeader
          titleId="channels-title"
          eyebrow="Channels"
          title={channels.data ? countOf(channelList.length, 'channel') : 'Channels'}
          description="Email to members, a signed webhook, Slack or Discord. Failed deliveries are retried for 24 hours."
          actions={
            mayChange && !isAddingChannel ? (
              <Button ref={newChannelButton} onClick={startChannel}>
                <Plus aria-hidden="true" className="size-4" />
                New channel
              </Button>
            ) : undefined
          }
        />
        <div className="flex flex-col gap-4">
          {secretOf?.secret && (
            <WebhookSecret
              channelName={secretOf.name}
              secret={secretOf.secret}
              onDismiss={() => dismissSecret(secretOf.id)}
            />
          )}
          {isAddingChannel && (
            <div ref={channelFormBox} className="rounded-xl p-4 ring-1 ring-inset ring-indigo-200">
              <ChannelForm
                projectId={project.id}
                members={memberList}
                onCreated={onChannelCreated}
                onCancel={closeChannelForm}
              />
            </div>
          )}
          {channels.isPending ? (
            <Loading what="the channels" />
          ) : channels.isError ? (
            <Alert tone="error">Could not load the channels: {channels.error.message}</Alert>
          ) : channelList.length === 0 ? (
            isAddingChannel ? null : (
              <EmptyState icon={<Radio aria-hidden="true" className="size-6" />} title="No channels yet">
                {mayChange
                  ? 'Add an email, webhook, Slack or Discord channel, then choose it in a rule.'
                  : 'An admin of this project can add channels.'}
              </EmptyState>
            )
          ) : (
            <ChannelList
              projectId={project.id}
              channels={channelList}
              rules={ruleList}
              members={memberList}
              canChange={mayChange}
            />
          )}
        </div>
      </Card>

      <Card aria-labelledby="reports-title">
        <CardHeader
          titleId="reports-title"
          eyebrow="Email reports"
          title="Weekly and monthly reports"
          description="Visits, users, connected wallets, transactions, fail rate, top sources and top incidents, each against the previous period. Weekly on Mondays, monthly on the 1st; every email has an unsubscribe link."
        />
        <ReportSubscriptions projectId={project.id} email={email} />
      </Card>
    </div>
  );
}
