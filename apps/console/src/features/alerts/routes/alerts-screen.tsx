import type { CreatedAlertChannel } from '@polyflow/contracts/alert-channels';
import type { Project } from '@polyflow/contracts/projects';
import { useState } from 'react';
import { DOCS } from '../../../components/docs-links';
import { PageHeader } from '../../../components/page-header';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { EmptyState } from '../../../components/ui/empty-state';
import { BellRing, Plus, Radio } from '../../../components/ui/icons';
import { Spinner } from '../../../components/ui/spinner';
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

  const onChannelCreated = (channel: CreatedAlertChannel) => {
    setIsAddingChannel(false);
    if (channel.secret) setSecretOf(channel);
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

      <Card aria-labelledby="rules-title">
        <CardHeader
          titleId="rules-title"
          eyebrow="Rules"
          title={rules.data ? countOf(ruleList.length, 'rule') : 'Rules'}
          description="Checked every minute (by default). A rule that fired waits its cooldown before firing again for the same project or incident."
          actions={
            mayChange && !isAddingRule ? (
              <Button onClick={() => setIsAddingRule(true)}>
                <Plus aria-hidden="true" className="size-4" />
                New rule
              </Button>
            ) : undefined
          }
        />
        <div className="flex flex-col gap-4">
          {isAddingRule && (
            <div className="rounded-xl p-4 ring-1 ring-inset ring-indigo-200">
              <RuleForm projectId={project.id} channels={channelList} onDone={() => setIsAddingRule(false)} />
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

      <Card aria-labelledby="channels-title">
        <CardHeader
          titleId="channels-title"
          eyebrow="Channels"
          title={channels.data ? countOf(channelList.length, 'channel') : 'Channels'}
          description="Email to members, a signed webhook, Slack or Discord. Failed deliveries are retried for 24 hours."
          actions={
            mayChange && !isAddingChannel ? (
              <Button onClick={() => setIsAddingChannel(true)}>
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
              onDismiss={() => setSecretOf(null)}
            />
          )}
          {isAddingChannel && (
            <div className="rounded-xl p-4 ring-1 ring-inset ring-indigo-200">
              <ChannelForm
                projectId={project.id}
                members={memberList}
                onCreated={onChannelCreated}
                onCancel={() => setIsAddingChannel(false)}
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
