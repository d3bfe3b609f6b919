import { formatTimeOfDay as timeOfDay } from '../../../lib/format';

/** "14:03:22.417" in the project's zone: the timeline's precision, where events are seconds apart. */
export function formatTimeOfDay(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return `${timeOfDay(date.getTime())}.${String(date.getUTCMilliseconds()).padStart(3, '0')}`;
}
