import type { AlertChannelType as ChannelType } from '@polyflow/contracts/alert-channels';
import { Hash, Mail, MessageSquare, Webhook } from '../../../components/ui/icons';

export const CHANNEL_TYPE_LABELS: Record<ChannelType, string> = {
  email: 'Email',
  webhook: 'Webhook',
  slack: 'Slack',
  discord: 'Discord',
};

const ICONS = { email: Mail, webhook: Webhook, slack: Hash, discord: MessageSquare } as const;

export function ChannelTypeIcon({ type }: { type: ChannelType }) {
  const Icon = ICONS[type];
  return <Icon aria-hidden="true" className="size-4 shrink-0 text-indigo-700" />;
}
