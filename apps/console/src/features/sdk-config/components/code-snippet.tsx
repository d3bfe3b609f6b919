import { CopyButton } from '../../../components/ui/copy-button';

export function CodeSnippet({ title, code, copyLabel }: { title: string; code: string; copyLabel: string }) {
  return (
    <figure className="flex flex-col gap-1.5">
      <figcaption className="text-xs font-semibold uppercase tracking-wide text-slate-600">
        {title}
      </figcaption>
      <div className="flex items-start gap-2 rounded-lg bg-slate-900 p-3">
        <pre className="min-w-0 flex-1 overflow-x-auto whitespace-pre-wrap break-all font-mono text-xs leading-relaxed text-indigo-100">
          <code>{code}</code>
        </pre>
        <CopyButton
          text={code}
          label={copyLabel}
          className="bg-slate-800 text-indigo-100 ring-slate-700 hover:bg-slate-700"
        />
      </div>
    </figure>
  );
}
