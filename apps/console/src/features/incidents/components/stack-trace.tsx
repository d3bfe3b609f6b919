import type { IncidentOccurrence, StackFrame } from '@polyflow/contracts/incidents';
import { cn } from '../../../components/ui/cn';
import { ChevronRight } from '../../../components/ui/icons';

/**
 * The stack of the latest occurrence. When the release's source maps map it (docs/source-maps.md), each
 * frame shows the original function, file and line with the source around it, and its minified frame one
 * click away; otherwise the stack as the browser sent it. Source text is shown as text (React escapes it):
 * a map's `sourcesContent` is never markup.
 */
export function StackTrace({ occurrence }: { occurrence: IncidentOccurrence }) {
  const frames = occurrence.frames ?? [];
  if (!frames.some((frame) => frame.mapped)) {
    return occurrence.stack ? (
      <pre
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard.
        tabIndex={0}
        data-testid="stack-trace"
        className="max-h-72 overflow-auto rounded-lg bg-slate-900 p-3 font-mono text-xs leading-relaxed text-slate-100 max-sm:whitespace-pre-wrap max-sm:wrap-anywhere focus-visible:outline-2 focus-visible:outline-indigo-500"
      >
        {occurrence.stack}
      </pre>
    ) : (
      <p className="text-sm text-slate-500">No stack was recorded for this error.</p>
    );
  }
  return (
    <ol aria-label="Stack frames, mapped through the release's source maps" className="flex flex-col gap-2">
      {frames.map((frame, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a stack can repeat a frame (recursion).
        <FrameItem key={index} frame={frame} isTop={index === 0} />
      ))}
    </ol>
  );
}

function location(frame: StackFrame): string {
  if (!frame.file) return 'source outside the bundle (names only)';
  return [frame.file, frame.line, frame.column].filter((part) => part !== null).join(':');
}

function FrameItem({ frame, isTop }: { frame: StackFrame; isTop: boolean }) {
  return (
    <li
      data-testid="stack-frame"
      className={cn(
        'min-w-0 rounded-lg ring-1 ring-inset',
        frame.mapped ? 'bg-white ring-slate-200' : 'bg-slate-50 ring-slate-200',
      )}
    >
      <div className="flex min-w-0 flex-wrap items-baseline gap-x-2 gap-y-0.5 px-3 pt-2 font-mono text-xs">
        <span className="font-semibold text-slate-900">{frame.function ?? '<anonymous>'}</span>
        {frame.mapped ? (
          <span className="min-w-0 wrap-anywhere text-indigo-800">{location(frame)}</span>
        ) : (
          <span className="min-w-0 wrap-anywhere text-slate-500">{frame.minified}</span>
        )}
      </div>
      {frame.context.length > 0 && (
        <pre
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard.
          tabIndex={0}
          className="mx-3 mt-2 overflow-x-auto rounded-md bg-slate-900 py-2 font-mono text-xs leading-relaxed text-slate-300 focus-visible:outline-2 focus-visible:outline-indigo-500"
        >
          {frame.context.map((line) => (
            <div
              key={line.line}
              className={cn('flex px-3', line.line === frame.line && 'bg-red-500/20 text-white')}
              aria-current={line.line === frame.line ? 'true' : undefined}
            >
              <span aria-hidden="true" className="w-10 shrink-0 pr-3 text-right text-slate-400 select-none">
                {line.line}
              </span>
              <span className="whitespace-pre">{line.text}</span>
            </div>
          ))}
        </pre>
      )}
      {frame.mapped ? (
        <details className="group px-3 pt-1 pb-2" open={false}>
          <summary className="inline-flex cursor-pointer items-center gap-1 text-xs font-semibold text-slate-600 hover:text-slate-900">
            <ChevronRight aria-hidden="true" className="size-3.5 transition-transform group-open:rotate-90" />
            Minified frame
          </summary>
          <code className="mt-1 block font-mono text-xs wrap-anywhere text-slate-600">{frame.minified}</code>
        </details>
      ) : (
        <p className="px-3 pt-1 pb-2 text-xs text-slate-500">
          {isTop ? 'Not covered by this release’s source maps.' : 'Not mapped.'}
        </p>
      )}
    </li>
  );
}
