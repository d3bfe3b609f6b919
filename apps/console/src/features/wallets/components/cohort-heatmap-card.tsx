import { useState } from 'react';
import { ChartCard } from '../../../components/ui/chart-card';
import { DownloadCsvButton } from '../../../components/ui/download-csv-button';
import { formatDate } from '../../../lib/format';
import { type CohortOptions, useRetentionCohorts } from '../api/get-retention-cohorts';
import type { WalletRange } from '../api/wallet-keys';
import { formatCount } from '../lib/format';

const INDIGO = [67, 56, 202] as const;

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
  const [splitText, setSplitText] = useState('');
  const cohorts = useRetentionCohorts(range, options);
  const data = cohorts.data;
  const unit = data?.granularity === 'DAY' ? 'Day' : 'Week';
  const periods = Array.from({ length: data?.periods ?? 12 }, (_, index) => index + 1);
  return (
    <ChartCard
      title="Retention cohorts"
      eyebrow="Wallets by first connection"
      status={cohorts.status}
      errorText={cohorts.error ? `Could not load the cohorts: ${cohorts.error.message}` : undefined}
      onRetry={() => void cohorts.refetch()}
      isEmpty={(data?.cohorts.length ?? 0) === 0}
      emptyText="No wallet connected for the first time in this period"
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
        <form
          className="flex flex-wrap items-center gap-2"
          onSubmit={(event) => {
            event.preventDefault();
            const [dimension, ...rest] = splitText.split('=');
            const value = rest.join('=').trim();
            const known = (['source', 'medium', 'campaign'] as const).find((d) => d === dimension?.trim());
            setOptions((current) => ({
              ...current,
              splitDimension: known && value ? known : null,
              splitValue: known && value ? value : null,
            }));
          }}
        >
          <label
            htmlFor="cohort-split"
            className="text-xs font-semibold uppercase tracking-wide text-slate-600"
          >
            Only
          </label>
          <input
            id="cohort-split"
            className="h-8 w-48 rounded-md px-2 text-xs ring-1 ring-inset ring-slate-300"
            placeholder="source=discord"
            value={splitText}
            onChange={(event) => setSplitText(event.target.value)}
          />
          <button type="submit" className="text-xs font-semibold text-indigo-700">
            Apply
          </button>
        </form>
      </div>
      {data && data.cohorts.length > 0 && (
        <div className="overflow-x-auto" data-testid="cohort-heatmap">
          <table className="w-full min-w-[44rem] border-separate border-spacing-0.5 text-center text-xs">
            <thead className="text-slate-500">
              <tr>
                <th scope="col" className="px-2 py-1 text-left">
                  Cohort
                </th>
                <th scope="col" className="px-2 py-1">
                  Wallets
                </th>
                {periods.map((k) => (
                  <th key={k} scope="col" className="px-1 py-1 font-medium">
                    {unit === 'Day' ? 'D' : 'W'}
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
                    className="whitespace-nowrap px-2 py-1 text-left font-medium text-slate-700"
                  >
                    {formatDate(cohort.start, 'UTC')}
                  </th>
                  <td className="px-2 py-1 tabular-nums text-slate-700">{formatCount(cohort.size)}</td>
                  {periods.map((k) => {
                    const share = cohort.shares[k - 1] ?? null;
                    const returned = cohort.returned[k - 1] ?? null;
                    return share === null ? (
                      <td key={k} className="rounded bg-slate-50 px-1 py-1.5 text-slate-300">
                        ·
                      </td>
                    ) : (
                      <td
                        key={k}
                        className="rounded px-1 py-1.5 tabular-nums"
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
