import { Link } from 'react-router';
import { Alert } from '../../../components/ui/alert';
import { Spinner } from '../../../components/ui/spinner';
import { formatDateTime } from '../../../lib/format';
import { useRuleFirings } from '../api/get-rule-firings';
import { subjectText } from '../lib/figures';
import { FigureList } from './figure-list';

/** A rule's stored firings, newest first: triggered and resolved, with the figures its notice carried. */
export function RuleFirings({
  projectId,
  ruleId,
  ruleName,
}: {
  projectId: string;
  ruleId: string;
  ruleName: string;
}) {
  const firings = useRuleFirings(projectId, ruleId);
  if (firings.isPending) {
    return (
      <p className="flex items-center gap-2 text-sm text-slate-600">
        <Spinner /> Loading firings…
      </p>
    );
  }
  if (firings.isError) return <Alert tone="error">Could not load the firings: {firings.error.message}</Alert>;
  if (firings.data.firings.length === 0) {
    return <p className="text-sm text-slate-600">This rule has not fired yet.</p>;
  }
  return (
    <ol aria-label={`Firings of ${ruleName}`} className="flex flex-col gap-2">
      {firings.data.firings.map((firing) => (
        <li
          key={firing.id}
          className="flex flex-col gap-1 rounded-lg bg-slate-50 px-3 py-2 ring-1 ring-inset ring-slate-200"
        >
          <span className="flex flex-wrap items-center gap-x-2 text-xs text-slate-800">
            <span
              className={
                firing.type === 'triggered'
                  ? 'rounded-full bg-red-50 px-2 py-0.5 font-semibold text-red-800 ring-1 ring-inset ring-red-200'
                  : 'rounded-full bg-emerald-50 px-2 py-0.5 font-semibold text-emerald-800 ring-1 ring-inset ring-emerald-200'
              }
            >
              {firing.type === 'triggered' ? 'Triggered' : 'Resolved'}
            </span>
            <time dateTime={firing.at} className="font-semibold">
              {formatDateTime(firing.at)}
            </time>
            {firing.subject.kind === 'incident' ? (
              <Link
                to={`../errorlogs/${encodeURIComponent(firing.subject.id)}`}
                relative="path"
                className="font-medium text-indigo-700 underline-offset-2 hover:underline"
              >
                {subjectText(firing.subject)}
              </Link>
            ) : (
              <span>{subjectText(firing.subject)}</span>
            )}
          </span>
          <FigureList figures={firing.figures} />
        </li>
      ))}
    </ol>
  );
}
