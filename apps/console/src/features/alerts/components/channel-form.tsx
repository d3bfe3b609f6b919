import {
  type AlertChannelType as ChannelType,
  AlertChannelTypes as ChannelTypes,
  type CreatedAlertChannel,
  DISCORD_URL_PATTERN,
  MAX_ALERT_CHANNEL_URL_LENGTH,
  SLACK_URL_PATTERN,
} from '@polyflow/contracts/alert-channels';
import type { Member } from '@polyflow/contracts/members';
import { type FormEvent, useId, useState } from 'react';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { SelectField } from '../../../components/ui/select-field';
import { isApiError } from '../../../lib/api-client';
import { focusFirstInvalid } from '../../../lib/focus-first-invalid';
import { type ChannelDraft, useCreateAlertChannel } from '../api/create-alert-channel';
import { CHANNEL_TYPE_LABELS } from './channel-type';

const URL_HINTS: Record<Exclude<ChannelType, 'email'>, { placeholder: string; hint: string }> = {
  webhook: {
    placeholder: 'https://example.com/polyflow-webhook',
    hint: 'http(s). Polyflow POSTs signed JSON here; private and loopback addresses are refused.',
  },
  slack: {
    placeholder: 'https://hooks.slack.com/services/…',
    hint: "A Slack incoming webhook URL (Slack's app settings → Incoming Webhooks).",
  },
  discord: {
    placeholder: 'https://discord.com/api/webhooks/…',
    hint: "A Discord webhook URL (the channel's settings → Integrations → Webhooks).",
  },
};

/** Why the URL cannot be this channel's, or null; the server also checks where the host resolves to. */
export function urlError(raw: string, type: Exclude<ChannelType, 'email'>): string | null {
  const text = raw.trim();
  if (text === '') return 'Enter the URL';
  if (text.length > MAX_ALERT_CHANNEL_URL_LENGTH) {
    return `The URL is longer than ${MAX_ALERT_CHANNEL_URL_LENGTH} characters`;
  }
  try {
    const { protocol } = new URL(text);
    if (protocol !== 'http:' && protocol !== 'https:') return 'Only http:// and https:// URLs';
  } catch {
    return 'Enter a full URL, starting with https://';
  }
  if (type === 'slack' && !SLACK_URL_PATTERN.test(text)) {
    return 'A Slack incoming webhook starts with https://hooks.slack.com/services/';
  }
  if (type === 'discord' && !DISCORD_URL_PATTERN.test(text)) {
    return 'A Discord webhook starts with https://discord.com/api/webhooks/';
  }
  return null;
}

interface ChannelFormProps {
  projectId: string;
  members: Member[];
  onCreated: (channel: CreatedAlertChannel) => void;
  onCancel: () => void;
}

/** A channel per type: email to chosen members, or a webhook, Slack or Discord URL. */
export function ChannelForm({ projectId, members, onCreated, onCancel }: ChannelFormProps) {
  const [type, setType] = useState<ChannelType>('email');
  const [name, setName] = useState('');
  const [url, setUrl] = useState('');
  const [memberIds, setMemberIds] = useState<string[]>([]);
  const [submitted, setSubmitted] = useState(false);
  const create = useCreateAlertChannel();
  const urlId = useId();
  const refusalId = useId();
  // The server refuses an address only it can judge (a host that resolves to a private network): the URL
  // field is then the one in error, and says so with the server's message (WCAG 3.3.1).
  const isAddressRefused = isApiError(create.error) && create.error.errorCode === 'WEBHOOK_ADDRESS_REFUSED';

  const nameError = name.trim() === '' ? 'Give the channel a name' : null;
  const addressError =
    type === 'email' ? (memberIds.length === 0 ? 'Choose at least one member' : null) : urlError(url, type);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSubmitted(true);
    if (nameError !== null || addressError !== null) {
      focusFirstInvalid(event.currentTarget);
      return;
    }
    const channel: ChannelDraft =
      type === 'email'
        ? { type, name: name.trim(), memberIds }
        : { type, name: name.trim(), url: url.trim() };
    create.mutate(
      { projectId, channel },
      {
        onSuccess: onCreated,
        onError: (error) => {
          if (isApiError(error) && error.errorCode === 'WEBHOOK_ADDRESS_REFUSED')
            document.getElementById(urlId)?.focus();
        },
      },
    );
  };

  return (
    <form onSubmit={onSubmit} aria-label="New channel" noValidate className="flex flex-col gap-3">
      <div className="grid gap-3 sm:grid-cols-2">
        <SelectField
          label="Type"
          value={type}
          onChange={(event) => setType(event.target.value as ChannelType)}
          options={ChannelTypes.map((value) => ({ value, label: CHANNEL_TYPE_LABELS[value] }))}
        />
        <Input
          label="Name"
          value={name}
          maxLength={100}
          placeholder="E.g. On-call team"
          required
          error={submitted ? (nameError ?? undefined) : undefined}
          onChange={(event) => setName(event.target.value)}
        />
      </div>
      {type === 'email' ? (
        <fieldset
          className="flex flex-col gap-2"
          aria-describedby={submitted && addressError ? 'channel-members-error' : undefined}
        >
          <legend className="mb-1.5 text-xs font-semibold uppercase tracking-wide text-slate-600">
            Send to
          </legend>
          <div className="flex flex-wrap gap-2">
            {members.map((member) => {
              const isChecked = memberIds.includes(member.userId);
              return (
                <label
                  key={member.userId}
                  className="flex cursor-pointer items-center gap-2 rounded-lg bg-white px-3 py-2 text-sm text-slate-800 ring-1 ring-inset ring-slate-300 has-[:checked]:bg-indigo-50 has-[:checked]:ring-indigo-300 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-indigo-600"
                >
                  <input
                    type="checkbox"
                    className="size-4 accent-indigo-700"
                    checked={isChecked}
                    onChange={() =>
                      setMemberIds(
                        isChecked
                          ? memberIds.filter((id) => id !== member.userId)
                          : [...memberIds, member.userId],
                      )
                    }
                  />
                  {member.email}
                </label>
              );
            })}
          </div>
          {submitted && addressError && (
            <p id="channel-members-error" className="text-xs text-red-600">
              {addressError}
            </p>
          )}
        </fieldset>
      ) : (
        <Input
          id={urlId}
          label="URL"
          type="url"
          inputMode="url"
          value={url}
          maxLength={MAX_ALERT_CHANNEL_URL_LENGTH}
          placeholder={URL_HINTS[type].placeholder}
          required
          error={submitted ? (addressError ?? undefined) : undefined}
          hint={URL_HINTS[type].hint}
          {...(isAddressRefused && {
            'aria-invalid': true,
            'aria-describedby': `${refusalId} ${urlId}-message`,
          })}
          onChange={(event) => {
            setUrl(event.target.value);
            // A new address has not been refused yet.
            if (isAddressRefused) create.reset();
          }}
        />
      )}
      {create.isError && (
        <Alert id={refusalId} tone="error">
          {create.error.message}
        </Alert>
      )}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" isLoading={create.isPending}>
          Add channel
        </Button>
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
