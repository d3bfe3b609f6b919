import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { ChangeBadge } from '../../../components/ui/change-badge';
import { DownloadCsvButton } from '../../../components/ui/download-csv-button';
import { RotateCw } from '../../../components/ui/icons';
import { StatTile } from '../../../components/ui/stat-tile';
import type { AnalyticsRange } from '../api/analytics-keys';
import { useOverview } from '../api/get-overview';
import { overviewCsv, previousPeriodText, TILES, tileComparison } from '../lib/overview-figures';

/**
 * Every tile reads the one overview request: each shows its loading placeholder while it runs and
 * drops it on completion or on error (spec §4), when a dash and a retry replace the figures. The previous
 * period's request (docs/analytics.md, "The previous period") adds each tile's change; the figures never
 * wait for it.
 */
export function OverviewTiles({ range }: { range: AnalyticsRange }) {
  const overview = useOverview(range);
  const previous = useOverview(range, { previous: true });
  const data = overview.data;
  const before = previous.data;
  return (
    <div className="flex flex-col gap-3">
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 xl:grid-cols-4 2xl:grid-cols-7">
        {TILES.map((tile) => {
          const comparison = data ? tileComparison(tile, data, before) : null;
          return (
            <StatTile
              key={tile.label}
              label={tile.label}
              isLoading={overview.isPending}
              isError={overview.isError}
              value={data ? tile.format(tile.figure(data)) : ''}
              change={comparison && <ChangeBadge comparison={comparison} better={tile.change?.better} />}
              hint={
                data ? (
                  <>
                    {tile.change && before && (
                      <span className="block font-medium text-slate-600">
                        Previous: {tile.format(tile.figure(before))}
                      </span>
                    )}
                    {tile.hint(data)}
                  </>
                ) : (
                  ' '
                )
              }
            />
          );
        })}
      </dl>
      {data && (
        <div className="flex flex-wrap items-center justify-between gap-2 text-xs text-slate-500">
          <p data-testid="comparison-period">
            Changes compare with {previousPeriodText(data.dailyActiveWalletsTrend)}
            {previous.isError && ' (could not load the previous period)'}.
          </p>
          <DownloadCsvButton
            table="Overview"
            build={() => overviewCsv(data, before)}
            disabled={previous.isPending}
          />
        </div>
      )}
      {overview.isError && (
        <Alert tone="error">
          Could not load the overview: {overview.error.message}{' '}
          <Button size="sm" variant="secondary" onClick={() => overview.refetch()}>
            <RotateCw aria-hidden="true" className="size-3.5" /> Retry
          </Button>
        </Alert>
      )}
    </div>
  );
}
