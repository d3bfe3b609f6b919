import type { Comparison } from '@polyflow/contracts/comparison';
import { SeverityLabels } from '@polyflow/contracts/incidents';
import type { Email } from '../mail/service.ts';
import type { Figure, RankedRow, ReportContent } from './content.ts';
import { dateOf, isoDate, periodTitle } from './periods.ts';

/**
 * The report as an email (docs/reports.md): plain text, and HTML that common mail clients render the
 * same — tables, inline styles only, no image, font or stylesheet from elsewhere; dark text on white
 * (every colour pair at least 4.5:1, WCAG AA). `List-Unsubscribe` names the link that turns it off.
 */

const TEXT = '#1f2328';
const MUTED = '#57606a';
const RULE = '#d0d7de';
const GOOD = '#1a7f37';
const BAD = '#b42318';
const FONT = "-apple-system, 'Segoe UI', Helvetica, Arial, sans-serif";

// Made on first use, not when the module loads: ICU's number data stays out of an idle server's memory
// until a report is written (docs/decisions/089).
let formats: { counts: Intl.NumberFormat; percent: Intl.NumberFormat } | undefined;
function numberFormats(): { counts: Intl.NumberFormat; percent: Intl.NumberFormat } {
  formats ??= {
    counts: new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 }),
    percent: new Intl.NumberFormat('en-US', { style: 'percent', maximumFractionDigits: 1 }),
  };
  return formats;
}

function formatValue(figure: Pick<Figure, 'value' | 'kind'>): string {
  if (figure.value === null) return '—';
  if (figure.kind === 'points')
    return figure.value > 0 && figure.value < 0.001 ? '< 0.1%' : numberFormats().percent.format(figure.value);
  return numberFormats().counts.format(figure.value);
}

/**
 * "▲ 12%", "▼ 1.2 pp", "no change": the console's comparison in words; "new" for something the previous
 * period had none of, "—" when there is nothing to compare (none in either period, or no rate).
 */
function changeText(comparison: Comparison, value: number | null, previous: number | null): string {
  if (!comparison.hasChange) {
    return comparison.reason === 'no-previous' && previous === 0 && value !== null && value > 0 ? 'new' : '—';
  }
  if (comparison.direction === 'flat') return 'no change';
  return `${comparison.direction === 'up' ? '▲' : '▼'} ${comparison.magnitude}`;
}

function changeColour(comparison: Comparison, better: 'up' | 'down'): string {
  if (!comparison.hasChange || comparison.direction === 'flat') return MUTED;
  return comparison.direction === better ? GOOD : BAD;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** Titles are user content (an error message): one line, bounded, so the mail stays readable. */
const oneLine = (text: string, max = 90) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

export type ReportEmailInput = {
  to: string;
  projectName: string;
  content: ReportContent;
  /** The console's screens of the project (PUBLIC_URL/console/<id>). */
  consoleUrl: string;
  unsubscribeUrl: string;
  timeZone: string;
};

export function reportEmail(input: ReportEmailInput): Email {
  const { to, projectName, content, consoleUrl, unsubscribeUrl, timeZone } = input;
  const kindWord = content.period.kind === 'weekly' ? 'Weekly' : 'Monthly';
  const title = periodTitle(content.period, timeZone);
  const previousText = `${isoDate(dateOf(content.previous.fromMs, timeZone))} to ${isoDate(dateOf(content.previous.toMs - 1, timeZone))}`;
  const subject = `${kindWord} report for ${oneLine(projectName, 60)}: ${title}`;
  return {
    to,
    subject,
    text: textOf({ ...input, kindWord, title, previousText }),
    html: htmlOf({ ...input, kindWord, title, previousText }),
    headers: { 'List-Unsubscribe': `<${unsubscribeUrl}>` },
  };

  function textOf(all: ReportEmailInput & { kindWord: string; title: string; previousText: string }) {
    const lines = [
      `${all.kindWord} Polyflow report for "${projectName}"`,
      `${title} (${timeZone}); changes against ${all.previousText}.`,
      '',
      ...content.figures.map(
        (figure) =>
          `${figure.label}: ${formatValue(figure)} (${changeText(figure.comparison, figure.value, figure.previous)})`,
      ),
      '',
      'Top sources (visits):',
      ...rankedText(content.topSources, 'No visits came with a UTM source.'),
      '',
      'Top incidents (occurrences):',
      ...rankedText(
        content.topIncidents.map((row) => ({
          ...row,
          name: `${oneLine(row.name)} (${SeverityLabels[row.severity]} severity)`,
        })),
        'No incidents.',
      ),
      '',
      `Open the console: ${consoleUrl}/analytics`,
      '',
      `You get this because you turned on ${kindWord.toLowerCase()} reports for this project.`,
      `Turn them off: ${unsubscribeUrl}`,
    ];
    return lines.join('\n');
  }

  function rankedText(rows: RankedRow[], empty: string): string[] {
    // "1. twitter: 2 (▲ 100%)"; the name is user content on one line.
    if (rows.length === 0) return [`  ${empty}`];
    return rows.map(
      (row, index) =>
        `  ${index + 1}. ${row.name}: ${numberFormats().counts.format(row.value)} (${changeText(row.comparison, row.value, row.previous)})`,
    );
  }

  function htmlOf(all: ReportEmailInput & { kindWord: string; title: string; previousText: string }) {
    const cell = `padding:8px 0;border-bottom:1px solid ${RULE};font-family:${FONT};font-size:14px;color:${TEXT};`;
    const figureRows = content.figures
      .map(
        (figure) => `<tr>
<td style="${cell}">${escapeHtml(figure.label)}</td>
<td align="right" style="${cell}font-weight:bold;">${escapeHtml(formatValue(figure))}</td>
<td align="right" style="${cell}width:110px;color:${changeColour(figure.comparison, figure.better)};">${escapeHtml(changeText(figure.comparison, figure.value, figure.previous))}</td>
</tr>`,
      )
      .join('\n');
    const ranked = (
      heading: string,
      unit: string,
      rows: RankedRow[],
      empty: string,
      linkOf?: (row: RankedRow) => string,
      detailOf?: (row: RankedRow) => string,
    ) => {
      const body =
        rows.length === 0
          ? `<tr><td colspan="3" style="${cell}color:${MUTED};">${escapeHtml(empty)}</td></tr>`
          : rows
              .map((row) => {
                const name = escapeHtml(oneLine(row.name));
                const linked = linkOf
                  ? `<a href="${escapeHtml(linkOf(row))}" style="color:${TEXT};">${name}</a>`
                  : name;
                const detail = detailOf?.(row);
                const named = detail
                  ? `${linked}<br><span style="font-size:12px;color:${MUTED};">${escapeHtml(detail)}</span>`
                  : linked;
                return `<tr>
<td style="${cell}word-break:break-word;">${named}</td>
<td align="right" style="${cell}font-weight:bold;">${numberFormats().counts.format(row.value)}</td>
<td align="right" style="${cell}width:110px;color:${MUTED};">${escapeHtml(changeText(row.comparison, row.value, row.previous))}</td>
</tr>`;
              })
              .join('\n');
      return `<h2 style="margin:28px 0 4px;font-family:${FONT};font-size:16px;color:${TEXT};">${escapeHtml(heading)}</h2>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0">
<tr><td style="${cell}color:${MUTED};font-size:12px;"></td><td align="right" style="${cell}color:${MUTED};font-size:12px;">${escapeHtml(unit)}</td><td align="right" style="${cell}color:${MUTED};font-size:12px;">Change</td></tr>
${body}
</table>`;
    };
    const severityOf = new Map(content.topIncidents.map((row) => [row as RankedRow, row.severity]));
    const nowrap = (text: string) => `<span style="white-space:nowrap;">${escapeHtml(text)}</span>`;
    return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:0;background:#ffffff;color:${TEXT};">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background:#ffffff;">
<tr><td align="center" style="padding:24px 16px;">
<!--[if mso]><table role="presentation" width="600" cellpadding="0" cellspacing="0" border="0"><tr><td><![endif]-->
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:600px;">
<tr><td style="font-family:${FONT};color:${TEXT};">
<p style="margin:0 0 4px;font-size:13px;color:${MUTED};">${escapeHtml(all.kindWord)} Polyflow report</p>
<h1 style="margin:0 0 4px;font-size:22px;color:${TEXT};">${escapeHtml(oneLine(projectName, 80))}</h1>
<p style="margin:0 0 20px;font-size:14px;color:${MUTED};">${nowrap(`${title} (${timeZone})`)}; changes against ${nowrap(all.previousText)}</p>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0">
${figureRows}
</table>
${ranked('Top sources', 'Visits', content.topSources, 'No visits came with a UTM source.')}
${ranked(
  'Top incidents',
  'Occurrences',
  content.topIncidents,
  'No incidents in this period.',
  (row) => `${consoleUrl}/errorlogs/${encodeURIComponent((row as RankedRow & { id: string }).id)}`,
  (row) => {
    const severity = severityOf.get(row);
    return severity ? `${SeverityLabels[severity]} severity` : '';
  },
)}
<p style="margin:28px 0 0;font-size:14px;"><a href="${escapeHtml(`${consoleUrl}/analytics`)}" style="color:#0550ae;font-weight:bold;">Open the console</a></p>
<p style="margin:28px 0 0;font-size:12px;color:${MUTED};">You get this because you turned on ${escapeHtml(all.kindWord.toLowerCase())} reports for this project. <a href="${escapeHtml(unsubscribeUrl)}" style="color:${MUTED};">Turn them off</a>.</p>
</td></tr></table>
<!--[if mso]></td></tr></table><![endif]-->
</td></tr></table>
</body></html>`;
  }
}
