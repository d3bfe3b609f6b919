import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { EmptyState } from './ui/empty-state';
import { LineChart } from './ui/icons';

/** Until events arrive (and until the analytics issues land) screens show this, never sample numbers. */
export function NoDataYet({ configPath, children }: { configPath: string; children?: ReactNode }) {
  return (
    <EmptyState icon={<LineChart aria-hidden="true" className="size-6" />} title="No data yet">
      <p>
        {children ?? 'Analytics arrive with the SDK.'} See{' '}
        <Link to={configPath} className="font-semibold text-indigo-700 underline">
          SDK settings
        </Link>{' '}
        to install it and test the integration.
      </p>
    </EmptyState>
  );
}
