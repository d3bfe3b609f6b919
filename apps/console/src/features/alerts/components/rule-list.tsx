import type { AlertChannel } from '@polyflow/contracts/alert-channels';
import type { AlertRule } from '@polyflow/contracts/alert-rules';
import { useRef, useState } from 'react';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { cn } from '../../../components/ui/cn';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { byId, focusAfterRemoval } from '../../../components/ui/focus-after-removal';
import { ChevronDown, ChevronRight, Pause, Pencil, Play, Trash2 } from '../../../components/ui/icons';
import { announce, focusSoon } from '../../../lib/announce';
import { formatDateTime } from '../../../lib/format';
import { useDeleteAlertRule } from '../api/delete-alert-rule';
import { useUpdateAlertRule } from '../api/update-alert-rule';
import { describeParams, RULE_KINDS } from '../lib/rule-kinds';
import { RuleFirings } from './rule-firings';
import { RuleForm } from './rule-form';

interface RuleListProps {
  projectId: string;
  rules: AlertRule[];
  channels: AlertChannel[];
  canChange: boolean;
}

function RuleState({ rule }: { rule: AlertRule }) {
  const [label, tone] = rule.paused
    ? ['Paused', 'bg-slate-100 text-slate-700 ring-slate-300']
    : rule.state === 'firing'
      ? ['Firing', 'bg-red-50 text-red-800 ring-red-200']
      : ['OK', 'bg-emerald-50 text-emerald-800 ring-emerald-200'];
  return (
    <span className={cn('rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ring-inset', tone)}>
      {label}
    </span>
  );
}

/** The project's rules: what each watches, where it sends, its state and firings; admins edit, pause, delete. */
export function RuleList({ projectId, rules, channels, canChange }: RuleListProps) {
  const [editing, setEditing] = useState<string | null>(null);
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const [deleting, setDeleting] = useState<AlertRule | null>(null);
  const update = useUpdateAlertRule();
  const remove = useDeleteAlertRule();
  const channelName = (id: string) => channels.find((channel) => channel.id === id)?.name;

  const list = useRef<HTMLUListElement>(null);
  const controlOf = (id: string, control: string) =>
    list.current?.querySelector<HTMLElement>(`[data-item-key="${CSS.escape(id)}"] ${control}`);

  // The form takes the rule's place, Edit with it: focus its first field; when it goes, the rule's Edit.
  const edit = (id: string) => {
    setEditing(id);
    focusSoon(() => controlOf(id, 'input, select'));
  };
  const doneEditing = (id: string, saved?: AlertRule) => {
    setEditing(null);
    if (saved) announce('Rule saved');
    focusSoon(() => controlOf(id, '[data-edit]'));
  };

  // mutateAsync: the list itself goes (for the empty state) when its last rule does, and a mutate
  // callback would not run then.
  const confirmDelete = (rule: AlertRule) => {
    const index = rules.findIndex((listed) => listed.id === rule.id);
    remove
      .mutateAsync({ projectId, ruleId: rule.id })
      .then(() => {
        announce(`Rule ${rule.name} deleted`);
        focusAfterRemoval({
          list: () => list.current,
          removedKey: rule.id,
          index,
          control: '[data-delete]',
          fallback: byId('rules-title'),
        });
      })
      .catch(() => {})
      .finally(() => setDeleting(null));
  };

  const toggle = (id: string) =>
    setOpen((previous) => {
      const next = new Set(previous);
      if (!next.delete(id)) next.add(id);
      return next;
    });

  return (
    <>
      {(update.isError || remove.isError) && (
        <Alert tone="error">{(update.error ?? remove.error)?.message}</Alert>
      )}
      <ul ref={list} aria-label="Alert rules" className="flex flex-col gap-3">
        {rules.map((rule) => {
          const names = rule.channelIds.map(channelName).filter((name) => name !== undefined);
          const isOpen = open.has(rule.id);
          return (
            <li
              key={rule.id}
              data-item-key={rule.id}
              className="flex flex-col gap-3 rounded-xl px-4 py-3 ring-1 ring-inset ring-slate-200"
            >
              {editing === rule.id ? (
                <RuleForm
                  projectId={projectId}
                  channels={channels}
                  rule={rule}
                  onDone={(saved) => doneEditing(rule.id, saved)}
                />
              ) : (
                <>
                  <div className="flex flex-wrap items-start justify-between gap-3">
                    <div className="flex min-w-0 flex-1 basis-64 flex-col gap-1">
                      <h3 className="flex flex-wrap items-center gap-2 text-sm font-bold text-slate-900">
                        <span className="break-words">{rule.name}</span>
                        <RuleState rule={rule} />
                      </h3>
                      <p className="text-sm text-slate-700">
                        <span className="font-medium">{RULE_KINDS[rule.kind].label}:</span>{' '}
                        {describeParams(rule.kind, rule.params)}
                      </p>
                      <p className="text-xs text-slate-600">
                        {names.length > 0 ? `Notifies ${names.join(', ')}` : 'Notifies no channel'} · cooldown{' '}
                        {rule.cooldownMinutes} min ·{' '}
                        {rule.lastFiredAt ? `last fired ${formatDateTime(rule.lastFiredAt)}` : 'never fired'}
                      </p>
                    </div>
                    {canChange && (
                      <div className="flex flex-wrap gap-2">
                        <Button
                          size="sm"
                          variant="secondary"
                          data-edit
                          aria-label={`Edit ${rule.name}`}
                          onClick={() => edit(rule.id)}
                        >
                          <Pencil aria-hidden="true" className="size-3.5" />
                          Edit
                        </Button>
                        <Button
                          size="sm"
                          variant="secondary"
                          aria-label={`${rule.paused ? 'Resume' : 'Pause'} ${rule.name}`}
                          disabled={update.isPending}
                          isLoading={update.isPending && update.variables?.ruleId === rule.id}
                          onClick={() =>
                            update.mutate({ projectId, ruleId: rule.id, change: { paused: !rule.paused } })
                          }
                        >
                          {rule.paused ? (
                            <Play aria-hidden="true" className="size-3.5" />
                          ) : (
                            <Pause aria-hidden="true" className="size-3.5" />
                          )}
                          {rule.paused ? 'Resume' : 'Pause'}
                        </Button>
                        <Button
                          size="sm"
                          variant="danger-outline"
                          data-delete
                          aria-label={`Delete ${rule.name}`}
                          onClick={() => setDeleting(rule)}
                        >
                          <Trash2 aria-hidden="true" className="size-3.5" />
                          Delete
                        </Button>
                      </div>
                    )}
                  </div>
                  <button
                    type="button"
                    aria-expanded={isOpen}
                    onClick={() => toggle(rule.id)}
                    className="flex items-center gap-1 self-start rounded-md text-sm font-semibold text-indigo-700 hover:text-indigo-900 focus-visible:outline-2 focus-visible:outline-indigo-600"
                  >
                    {isOpen ? (
                      <ChevronDown aria-hidden="true" className="size-4" />
                    ) : (
                      <ChevronRight aria-hidden="true" className="size-4" />
                    )}
                    Firings<span className="sr-only"> of {rule.name}</span>
                  </button>
                  {isOpen && <RuleFirings projectId={projectId} ruleId={rule.id} ruleName={rule.name} />}
                </>
              )}
            </li>
          );
        })}
      </ul>
      <ConfirmDialog
        isOpen={deleting !== null}
        title="Delete this rule?"
        confirmLabel="Delete rule"
        isBusy={remove.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={() => deleting && confirmDelete(deleting)}
      >
        <p>
          <strong>{deleting?.name}</strong> stops watching the project and sends no more notices. This cannot
          be undone.
        </p>
      </ConfirmDialog>
    </>
  );
}
