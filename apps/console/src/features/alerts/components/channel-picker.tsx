import type { AlertChannel } from '@polyflow/contracts/alert-channels';
import { CHANNEL_TYPE_LABELS } from './channel-type';

interface ChannelPickerProps {
  channels: AlertChannel[];
  selected: string[];
  onChange: (channelIds: string[]) => void;
}

/** Where a rule's notices go: any of the project's channels (none: the firings are only listed). */
export function ChannelPicker({ channels, selected, onChange }: ChannelPickerProps) {
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-1.5 text-xs font-semibold uppercase tracking-wide text-slate-600">Notify</legend>
      {channels.length === 0 ? (
        <p className="text-sm text-slate-600">
          No channels yet: add one under Channels. Without a channel the rule's firings are only listed here.
        </p>
      ) : (
        <div className="flex flex-wrap gap-2">
          {channels.map((channel) => {
            const isChecked = selected.includes(channel.id);
            return (
              <label
                key={channel.id}
                className="flex cursor-pointer items-center gap-2 rounded-lg bg-white px-3 py-2 text-sm text-slate-800 ring-1 ring-inset ring-slate-300 has-[:checked]:bg-indigo-50 has-[:checked]:ring-indigo-300 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-indigo-600"
              >
                <input
                  type="checkbox"
                  className="size-4 accent-indigo-700"
                  checked={isChecked}
                  onChange={() =>
                    onChange(
                      isChecked ? selected.filter((id) => id !== channel.id) : [...selected, channel.id],
                    )
                  }
                />
                {channel.name}
                <span className="text-xs text-slate-600">({CHANNEL_TYPE_LABELS[channel.type]})</span>
              </label>
            );
          })}
        </div>
      )}
    </fieldset>
  );
}
