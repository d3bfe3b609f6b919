import type { AlertNotice } from '@polyflow/contracts/alert-channels';

/**
 * What each channel type receives for one notice (docs/alerts.md, "Channels"). A webhook gets the notice's
 * JSON itself (times in UTC ISO 8601); Slack, Discord and email a readable message with the figures and the
 * link, its times on the project's clock as the reports print them.
 */

const localFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * "1 Nov 2026, 01:30 (America/New_York, UTC−4)": an instant on the project's clock, the zone and its offset
 * named (the offset tells the two 01:30 of a night the clocks go back apart).
 */
export function localTime(iso: string, timeZone: string): string {
  let format = localFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      day: 'numeric',
      month: 'short',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'shortOffset',
    });
    localFormats.set(timeZone, format);
  }
  const parts = format.formatToParts(new Date(iso));
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  const offset = part('timeZoneName').replace('GMT', 'UTC').replace('-', '\u2212');
  const zone = timeZone === 'UTC' || offset === 'UTC' ? timeZone : `${timeZone}, ${offset}`;
  return `${part('day')} ${part('month')} ${part('year')}, ${part('hour')}:${part('minute')} (${zone})`;
}

/** A figure named `…At` holding an ISO instant (lastEventAt, firstSeenAt, resolvedAt, occurredAt). */
const isInstantFigure = (name: string, value: number | string): value is string =>
  name.endsWith('At') && typeof value === 'string' && !Number.isNaN(Date.parse(value));

/** "Fail rate (%)" from "failRatePercent": the figure's name as words. */
export function figureLabel(name: string): string {
  const words = name
    .replace(/Percent$/, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase();
  const label = words.charAt(0).toUpperCase() + words.slice(1);
  return name.endsWith('Percent') ? `${label} (%)` : label;
}

function formatFigure(name: string, value: number | string, timeZone: string): string {
  if (isInstantFigure(name, value)) return localTime(value, timeZone);
  return typeof value === 'number' ? value.toLocaleString('en-US', { maximumFractionDigits: 2 }) : value;
}

/** One line per figure, in the notice's order. */
export const figureLines = (notice: AlertNotice, timeZone: string): string[] =>
  Object.entries(notice.figures).map(
    ([name, value]) => `${figureLabel(name)}: ${formatFigure(name, value, timeZone)}`,
  );

/** "Triggered: Checkout fail rate" — the first line of every message. */
export function headline(notice: AlertNotice): string {
  if (notice.type === 'test') return `Test notice from Polyflow for ${notice.project.name}`;
  const what = notice.type === 'alert.triggered' ? 'Triggered' : 'Resolved';
  return `${what}: ${notice.rule?.name ?? 'alert'} (${notice.project.name})`;
}

/** The subject line: the incident's title, or the project. */
export function subjectLine(notice: AlertNotice): string {
  if (notice.subject.kind === 'incident') return `Incident: ${notice.subject.title ?? notice.subject.id}`;
  return `Project: ${notice.project.name}`;
}

/** When the notice happened, on the project's clock: every readable message says it (docs/alerts.md). */
const atLine = (notice: AlertNotice, timeZone: string) => `At: ${localTime(notice.at, timeZone)}`;

/** Slack and Discord read `<`, `>` and `&` as markup: a rule's or incident's name must stay text. */
const escapeSlack = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const escapeDiscord = (text: string) => text.replace(/([\\*_~`|<>[\]()@#:])/g, '\\$1');

/** Slack's incoming webhook body: mrkdwn text (headline in bold, figures, link). */
export function slackMessage(notice: AlertNotice, timeZone: string): { text: string } {
  const lines = [
    `*${escapeSlack(headline(notice))}*`,
    escapeSlack(subjectLine(notice)),
    escapeSlack(atLine(notice, timeZone)),
    ...figureLines(notice, timeZone).map((line) => `• ${escapeSlack(line)}`),
    `<${notice.url}|Open in Polyflow>`,
  ];
  return { text: lines.join('\n') };
}

/** Discord's webhook body: markdown content (at most 2,000 characters), no mentions. */
export function discordMessage(
  notice: AlertNotice,
  timeZone: string,
): {
  content: string;
  allowed_mentions: { parse: string[] };
} {
  const lines = [
    `**${escapeDiscord(headline(notice))}**`,
    escapeDiscord(subjectLine(notice)),
    escapeDiscord(atLine(notice, timeZone)),
    ...figureLines(notice, timeZone).map((line) => `- ${escapeDiscord(line)}`),
    `Open in Polyflow: ${notice.url}`,
  ];
  return { content: lines.join('\n').slice(0, 2000), allowed_mentions: { parse: [] } };
}

/** The email: subject and plain text. */
export function emailMessage(notice: AlertNotice, timeZone: string): { subject: string; text: string } {
  const text = [
    headline(notice),
    '',
    subjectLine(notice),
    atLine(notice, timeZone),
    '',
    ...figureLines(notice, timeZone),
    '',
    `Open in Polyflow: ${notice.url}`,
    '',
    'You get this email because a member of the project chose you for this alert channel.',
  ].join('\n');
  return { subject: `[Polyflow] ${headline(notice)}`, text };
}
