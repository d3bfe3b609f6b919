import type { Goal } from '@polyflow/contracts/goals';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { ChangeBadge } from '../../../components/ui/change-badge';
import { ChartCard } from '../../../components/ui/chart-card';
import { Breakable } from '../../../lib/break-points';
import { compare } from '../../../lib/comparison';
import { formatPercent } from '../../../lib/format';
import { describeGoal } from '../../../lib/goals';
import type { AnalyticsRange } from '../api/analytics-keys';
import { useGoalConversions } from '../api/get-goal-conversions';
import { formatCount } from '../lib/format';
import { stateOf } from './chart-state';
import { ManageGoals } from './manage-goals-dialog';

interface GoalsCardProps {
  range: AnalyticsRange;
  /** Admins and the owner add and delete goals; viewers see them. */
  canManage: boolean;
}

/**
 * The Analytics screen's Goals card (docs/goals.md#conversions): per goal, the users who converted in the
 * period, the rate over the period's users and the change against the previous period; "Manage goals"
 * opens the form that adds, changes and deletes them.
 */
export function GoalsCard({ range, canManage }: GoalsCardProps) {
  const current = useGoalConversions(range);
  const previous = useGoalConversions(range, true);
  const [isManaging, setManaging] = useState(false);
  const rows = current.data?.goals ?? [];
  const before = new Map((previous.data?.goals ?? []).map((row) => [row.goal.id, row]));

  return (
    <>
      <ChartCard
        title="Goals"
        eyebrow="Conversions"
        className="xl:col-span-2"
        heightClass="min-h-32"
        {...stateOf(current)}
        isEmpty={rows.length === 0}
        emptyText={
          canManage
            ? 'No goals yet. Add one to count the users who send a custom event or visit a page.'
            : 'No goals yet. An admin or the owner can add them.'
        }
        actions={
          canManage && (
            <Button variant="secondary" size="sm" onClick={() => setManaging(true)}>
              Manage goals
            </Button>
          )
        }
      >
        <div className="overflow-x-auto">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">
              Goal conversions: users who converted in the period, and their rate over the{' '}
              {current.data ? formatCount(current.data.users) : ''} users of the period
            </caption>
            <thead>
              <tr className="border-b border-slate-200 text-xs font-semibold uppercase tracking-wide text-slate-500">
                <th scope="col" className="py-2 pr-3">
                  Goal
                </th>
                <th scope="col" className="py-2 pr-3 text-right">
                  Converted users
                </th>
                <th scope="col" className="py-2 text-right">
                  Rate
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => {
                const earlier = before.get(row.goal.id);
                return (
                  <tr key={row.goal.id} className="border-b border-slate-100 last:border-0">
                    <td className="py-2 pr-3">
                      <p className="font-semibold break-words text-slate-900">{row.goal.name}</p>
                      <p className="text-xs break-words text-slate-500">
                        <Breakable text={describeGoal(row.goal as Goal)} />
                      </p>
                    </td>
                    <td className="py-2 pr-3 text-right tabular-nums">
                      <span className="inline-flex items-center gap-2">
                        {formatCount(row.conversions)}
                        <ChangeBadge
                          better="up"
                          comparison={compare(
                            row.conversions,
                            earlier ? earlier.conversions : null,
                            'relative',
                          )}
                        />
                      </span>
                    </td>
                    <td className="py-2 text-right tabular-nums">{formatPercent(row.rate)}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      </ChartCard>
      {/* Outside the card: its body shows the empty state instead of its children when there is no goal. */}
      {isManaging && <ManageGoals projectId={range.projectId} onClose={() => setManaging(false)} />}
    </>
  );
}
