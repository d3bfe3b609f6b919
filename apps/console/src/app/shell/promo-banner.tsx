import { Sparkles } from '../../components/ui/icons';

export function PromoBanner({ onOpen }: { onOpen: () => void }) {
  return (
    <button
      type="button"
      onClick={onOpen}
      className="flex w-full items-center justify-center gap-2 bg-indigo-700 px-4 py-2 text-center text-xs font-semibold text-white hover:bg-indigo-800 focus-visible:outline-2 focus-visible:-outline-offset-4 focus-visible:outline-white sm:text-sm"
    >
      <Sparkles aria-hidden="true" className="size-4 shrink-0 text-amber-300" />
      <span>
        Early supporter offer: <span className="underline underline-offset-2">50% lifetime discount</span> on
        a Polyflow subscription
      </span>
    </button>
  );
}
