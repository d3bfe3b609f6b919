/** "14:03:22.417" (UTC): the timeline's precision, where events are seconds apart. */
export function formatTimeOfDay(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  // UTC, like every time of the console (src/lib/format.ts).
  return date.toISOString().slice(11, 23);
}
