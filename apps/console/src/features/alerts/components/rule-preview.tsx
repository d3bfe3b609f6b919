import { Alert } from '../../../components/ui/alert';
import { History } from '../../../components/ui/icons';
import { Spinner } from '../../../components/ui/spinner';
import { countOf, formatDateTime } from '../../../lib/format';
import { type PreviewInput, useAlertRulePreview } from '../api/preview-alert-rule';
import { useDebouncedValue } from '../hooks/use-debounced-value';
import { subjectText } from '../lib/figures';
import { FigureList } from './figure-list';

/** How long typing must pause before the preview asks the server. */
export const PREVIEW_DEBOUNCE_MS = 400;
const SHOWN = 10;

/**
 * What the rule, as typed, would have fired over the last 7 days (cooldown applied), so that a threshold
 * can be tuned before anyone is paged. Asks only once the parameters are valid and typing has paused.
 */
export function RulePreview({ projectId, input }: { projectId: string; input: PreviewInput | null }) {
  // Debounced as text: a new object on every render would restart the timer for ever.
  const settled = useDebouncedValue(input === null ? null : JSON.stringify(input), PREVIEW_DEBOUNCE_MS);
  const preview = useAlertRulePreview(
    projectId,
    settled === null ? null : (JSON.parse(settled) as PreviewInput),
  );
  const isWaiting = input !== null && JSON.stringify(input) !== settled;

  return (
    <section
      aria-labelledby="rule-preview-title"
      aria-busy={isWaiting || preview.isFetching || undefined}
      className="flex flex-col gap-3 self-start rounded-xl bg-slate-50 p-4 ring-1 ring-inset ring-slate-200"
    >
      <h3 id="rule-preview-title" className="flex items-center gap-2 text-sm font-bold text-slate-900">
        <History aria-hidden="true" className="size-4 text-indigo-700" />
        Preview: the last 7 days
        {(isWaiting || preview.isFetching) && <Spinner />}
      </h3>
      {input === null ? (
        <p className="text-sm text-slate-600">Fix the parameters to see what this rule would have fired.</p>
      ) : preview.isError ? (
        <Alert tone="error">Could not preview the rule: {preview.error.message}</Alert>
      ) : preview.data === undefined ? (
        <p className="text-sm text-slate-600">Looking at the last 7 days…</p>
      ) : preview.data.firings.length === 0 ? (
        <p className="text-sm text-slate-700" role="status">
          This rule would not have fired in the last 7 days.
        </p>
      ) : (
        <>
          <p className="text-sm text-slate-800" role="status">
            This rule would have fired <strong>{countOf(preview.data.firings.length, 'time')}</strong> in the
            last 7 days.
          </p>
          <ol aria-label="Preview firings" className="flex flex-col gap-2">
            {preview.data.firings.slice(0, SHOWN).map((firing) => (
              <li
                key={`${firing.at}-${firing.subject.id}`}
                className="flex flex-col gap-1 rounded-lg bg-white px-3 py-2 ring-1 ring-inset ring-slate-200"
              >
                <span className="text-xs font-semibold text-slate-800">
                  {formatDateTime(firing.at)} · {subjectText(firing.subject)}
                </span>
                <FigureList figures={firing.figures} />
              </li>
            ))}
          </ol>
          {preview.data.firings.length > SHOWN && (
            <p className="text-xs text-slate-600">
              And {countOf(preview.data.firings.length - SHOWN, 'more firing')}.
            </p>
          )}
        </>
      )}
    </section>
  );
}
