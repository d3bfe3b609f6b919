import type { AlertChannel } from '@polyflow/contracts/alert-channels';
import type { AlertRule } from '@polyflow/contracts/alert-rules';
import type { Member } from '@polyflow/contracts/members';
import { useRef, useState } from 'react';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { byId, focusAfterRemoval } from '../../../components/ui/focus-after-removal';
import { ChevronDown, ChevronRight, Send, Trash2 } from '../../../components/ui/icons';
import { announce } from '../../../lib/announce';
import { useDeleteAlertChannel } from '../api/delete-alert-channel';
import { useTestAlertChannel } from '../api/test-alert-channel';
import { ChannelDeliveries } from './channel-deliveries';
import { CHANNEL_TYPE_LABELS, ChannelTypeIcon } from './channel-type';

interface ChannelListProps {
  projectId: string;
  channels: AlertChannel[];
  rules: AlertRule[];
  members: Member[];
  canChange: boolean;
}

/** Where its notices go: an email channel's members (by address), or the URL as the server lists it. */
function destination(channel: AlertChannel, members: Member[]): string {
  if (channel.type === 'email') {
    const emails = (channel.memberIds ?? []).map(
      (id) => members.find((member) => member.userId === id)?.email ?? 'a former member',
    );
    return emails.length > 0 ? emails.join(', ') : 'no member';
  }
  return channel.url ?? '';
}

/** The project's channels with "Send test", delete (asked first) and each one's delivery log. */
export function ChannelList({ projectId, channels, rules, members, canChange }: ChannelListProps) {
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const [deleting, setDeleting] = useState<AlertChannel | null>(null);
  const [tested, setTested] = useState<string | null>(null);
  const test = useTestAlertChannel();
  const remove = useDeleteAlertChannel();
  const usedBy = deleting ? rules.filter((rule) => rule.channelIds.includes(deleting.id)) : [];

  const showLog = (id: string) => setOpen((previous) => new Set(previous).add(id));
  const toggle = (id: string) =>
    setOpen((previous) => {
      const next = new Set(previous);
      if (!next.delete(id)) next.add(id);
      return next;
    });

  const list = useRef<HTMLUListElement>(null);
  // mutateAsync: the list itself goes (for the empty state) when its last channel does, and a mutate
  // callback would not run then.
  const confirmDelete = (channel: AlertChannel) => {
    const index = channels.findIndex((listed) => listed.id === channel.id);
    remove
      .mutateAsync({ projectId, channelId: channel.id })
      .then(() => {
        announce(`Channel ${channel.name} deleted`);
        focusAfterRemoval({
          list: () => list.current,
          removedKey: channel.id,
          index,
          control: '[data-delete]',
          fallback: byId('channels-title'),
        });
      })
      .catch(() => {})
      .finally(() => setDeleting(null));
  };

  return (
    <>
      {(test.isError || remove.isError) && (
        <Alert tone="error">{(test.error ?? remove.error)?.message}</Alert>
      )}
      <ul ref={list} aria-label="Channels" className="flex flex-col gap-3">
        {channels.map((channel) => {
          const isOpen = open.has(channel.id);
          return (
            <li
              key={channel.id}
              data-item-key={channel.id}
              className="flex flex-col gap-3 rounded-xl px-4 py-3 ring-1 ring-inset ring-slate-200"
            >
              <div className="flex flex-wrap items-start justify-between gap-3">
                <div className="flex min-w-0 flex-1 basis-64 flex-col gap-1">
                  <h3 className="flex items-center gap-2 text-sm font-bold text-slate-900">
                    <ChannelTypeIcon type={channel.type} />
                    <span className="break-words">{channel.name}</span>
                    <span className="text-xs font-normal text-slate-600">
                      {CHANNEL_TYPE_LABELS[channel.type]}
                    </span>
                  </h3>
                  <p className="break-all text-xs text-slate-600">{destination(channel, members)}</p>
                  {tested === channel.id && (
                    <Alert tone="success">Test notice queued: its delivery appears in the log below.</Alert>
                  )}
                </div>
                {canChange && (
                  <div className="flex flex-wrap gap-2">
                    <Button
                      size="sm"
                      variant="secondary"
                      aria-label={`Send a test to ${channel.name}`}
                      isLoading={test.isPending && test.variables?.channelId === channel.id}
                      onClick={() =>
                        test.mutate(
                          { projectId, channelId: channel.id },
                          {
                            onSuccess: () => {
                              setTested(channel.id);
                              showLog(channel.id);
                            },
                          },
                        )
                      }
                    >
                      <Send aria-hidden="true" className="size-3.5" />
                      Send test
                    </Button>
                    <Button
                      size="sm"
                      variant="danger-outline"
                      data-delete
                      aria-label={`Delete ${channel.name}`}
                      onClick={() => setDeleting(channel)}
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
                onClick={() => toggle(channel.id)}
                className="flex items-center gap-1 self-start rounded-md text-sm font-semibold text-indigo-700 hover:text-indigo-900 focus-visible:outline-2 focus-visible:outline-indigo-600"
              >
                {isOpen ? (
                  <ChevronDown aria-hidden="true" className="size-4" />
                ) : (
                  <ChevronRight aria-hidden="true" className="size-4" />
                )}
                Delivery log<span className="sr-only"> of {channel.name}</span>
              </button>
              {isOpen && (
                <ChannelDeliveries projectId={projectId} channelId={channel.id} channelName={channel.name} />
              )}
            </li>
          );
        })}
      </ul>
      <ConfirmDialog
        isOpen={deleting !== null}
        title="Delete this channel?"
        confirmLabel="Delete channel"
        isBusy={remove.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={() => deleting && confirmDelete(deleting)}
      >
        <p>
          <strong>{deleting?.name}</strong> gets no more notices. This cannot be undone.
        </p>
        {usedBy.length > 0 && (
          <p>
            {usedBy.length === 1 ? 'The rule ' : 'The rules '}
            <strong>{usedBy.map((rule) => rule.name).join(', ')}</strong> no longer notify it.
          </p>
        )}
      </ConfirmDialog>
    </>
  );
}
