import { useState } from 'react';
import { ChartCard } from '../../../components/ui/chart-card';
import { DownloadCsvButton } from '../../../components/ui/download-csv-button';
import { formatDate } from '../../../lib/format';
import { type CohortOptions, useRetentionCohorts } from '../api/get-retention-cohorts';
import type { WalletRange } from '../api/wallet-keys';
import { formatCount } from '../lib/format';
import { CohortSplitForm } from './cohort-split-form';
import { FILTERED_MEANING, FilteredNote, isFiltered } from './filtered-note';

const INDIGO = [67, 56, 202] as const;
/** Periods a phone shows at once: the cohort, its size and four cells fit 390 px without scrolling. */
const PHONE_PERIODS = 4;

/** WCAG relative luminance of an sRGB colour (0..255 channels). */
function luminance(rgb: readonly number[]): number {
  const [r = 0, g = 0, b = 0] = rgb.map((value) => {
    const c = value / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/**
 * Indigo from pale to deep by share, over the white card. The text is white while that reaches 4.5:1
 * (WCAG AA) against the cell, black otherwise: between the two no dark indigo reaches it.
 */
function cellStyle(share: number) {
  const alpha = 0.08 + 0.82 * Math.min(1, share);
  const cell = INDIGO.map((channel) => 255 - alpha * (255 - channel));
  return {
    backgroundColor: `rgba(67, 56, 202, ${alpha.toFixed(3)})`,
    color: 1.05 / (luminance(cell) + 0.05) >= 4.5 ? 'white' : 'black',
  };
}

/** Weekly (daily under 30 days) cohorts by first connection and their returns, as a heatmap (docs/wallets.md). */
export function CohortHeatmapCard({ range }: { range: WalletRange }) {
  const [options, setOptions] = useState<CohortOptions>({
    returnBy: 'connected',
    splitDimension: null,
    splitValue: null,
  });
  // On a phone, the first period of the window shown (0-based); wider screens show every period.
  const [firstShown, setFirstShown] = useState(0);
  const cohorts = useRetentionCohorts(range, options);
  const data = cohorts.data;
  const unit = data?.granularity === 'DAY' ? 'Day' : 'Week';
  const periods = Array.from({ length: data?.periods ?? 12 }, (_, index) => index + 1);
  const windows = Array.from(
    { length: Math.ceil(periods.length / PHONE_PERIODS) },
    (_, i) => i * PHONE_PERIODS,
  );
  const start = windows.includes(firstShown) ? firstShown : 0;
  /** A period outside the phone's window is hidden below `sm`. */
  const phoneHidden = (k: number) => (k - 1 < start || k - 1 >= start + PHONE_PERIODS ? 'max-sm:hidden' : '');
  const letter = unit === 'Day' ? 'D' : 'W';
  return (
    <ChartCard
      title="Retention cohorts"
      eyebrow="Wallets by first connection"
      status={cohorts.status}
      errorText={cohorts.error ? `Could not load the cohorts: ${cohorts.error.message}` : undefined}
      onRetry={() => void cohorts.refetch()}
      isEmpty={(data?.cohorts.length ?? 0) === 0}
      emptyText={
        isFiltered(range)
          ? `No wallet connected for the first time in this period. ${FILTERED_MEANING.cohorts}`
          : 'No wallet connected for the first time in this period'
      }
      heightClass="min-h-0"
      className="xl:col-span-2"
      actions={
        <DownloadCsvButton
          table="Retention cohorts"
          disabled={!data}
          build={() => ({
            header: ['Cohort start', 'Wallets', ...periods.map((k) => `${unit} ${k} returned`)],
            rows: (data?.cohorts ?? []).map((cohort) => [cohort.start, cohort.size, ...cohort.returned]),
          })}
        />
      }
    >
      <FilteredNote range={range} card="cohorts" />
      <div className="mb-3 flex flex-wrap items-end gap-3 text-sm">
        <fieldset className="flex items-center gap-1 rounded-lg bg-slate-100 p-1">
          <legend className="sr-only">A return is</legend>
          {(['connected', 'transacted'] as const).map((returnBy) => (
            <button
              key={returnBy}
              type="button"
              aria-pressed={options.returnBy === returnBy}
              onClick={() => setOptions((current) => ({ ...current, returnBy }))}
              className={`rounded-md px-3 py-1 text-xs font-semibold ${options.returnBy === returnBy ? 'bg-white text-indigo-800 shadow-sm' : 'text-slate-600'}`}
            >
              {returnBy === 'connected' ? 'Connected again' : 'Transacted'}
            </button>
          ))}
        </fieldset>
        <CohortSplitForm onApply={(split) => setOptions((current) => ({ ...current, ...split }))} />
      </div>
      {data && data.cohorts.length > 0 && windows.length > 1 && (
        <fieldset className="mb-2 flex flex-wrap items-center gap-1 sm:hidden">
          <legend className="mb-1 text-xs font-semibold uppercase tracking-wide text-slate-600">
            {unit}s shown
          </legend>
          {windows.map((first) => {
            const last = Math.min(first + PHONE_PERIODS, periods.length);
            return (
              <button
                key={first}
                type="button"
                aria-pressed={start === first}
                aria-label={`${unit}s ${first + 1} to ${last}`}
                onClick={() => setFirstShown(first)}
                className={`rounded-md px-3 py-1 text-xs font-semibold ring-1 ring-inset ${start === first ? 'bg-indigo-700 text-white ring-indigo-700' : 'bg-white text-indigo-800 ring-slate-300'}`}
              >
                {letter}
                {first + 1}–{last}
              </button>
            );
          })}
        </fieldset>
      )}
      {data && data.cohorts.length > 0 && (
        <div className="sm:overflow-x-auto" data-testid="cohort-heatmap">
          <table
            aria-busy={cohorts.isPlaceholderData || undefined}
            className="w-full border-separate border-spacing-0.5 text-center text-xs sm:min-w-[44rem]"
          >
            <thead className="text-slate-500">
              <tr>
                <th scope="col" className="px-2 py-1 text-left">
                  Cohort
                </th>
                <th scope="col" className="px-2 py-1">
                  Wallets
                </th>
                {periods.map((k) => (
                  <th key={k} scope="col" className={`px-1 py-1 font-medium ${phoneHidden(k)}`}>
                    {letter}
                    {k}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {data.cohorts.map((cohort) => (
                <tr key={cohort.start}>
                  <th
                    scope="row"
                    className="px-2 py-1 text-left font-medium text-slate-700 sm:whitespace-nowrap"
                  >
                    {formatDate(cohort.start)}
                  </th>
                  <td className="px-2 py-1 tabular-nums text-slate-700">{formatCount(cohort.size)}</td>
                  {periods.map((k) => {
                    const share = cohort.shares[k - 1] ?? null;
                    const returned = cohort.returned[k - 1] ?? null;
                    return share === null ? (
                      <td
                        key={k}
                        className={`rounded bg-slate-50 px-1 py-1.5 text-slate-600 ${phoneHidden(k)}`}
                      >
                        ·
                      </td>
                    ) : (
                      <td
                        key={k}
                        className={`rounded px-1 py-1.5 tabular-nums ${phoneHidden(k)}`}
                        style={cellStyle(share)}
                        title={`${formatCount(returned ?? 0)} of ${formatCount(cohort.size)} wallets returned in ${unit.toLowerCase()} ${k}`}
                      >
                        {Math.round(share * 100)}%
                      </td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </ChartCard>
  );
}
