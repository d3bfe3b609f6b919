import { AlertTriangle } from '../../components/ui/icons';

/** Shown only for a stored session that says `verified: false` (our server logs in verified users only). */
export function UnverifiedWarning() {
  return (
    <p
      role="alert"
      className="flex items-center gap-2 rounded-xl bg-amber-100 px-4 py-2.5 text-sm font-semibold text-amber-900"
    >
      <AlertTriangle aria-hidden="true" className="size-4 shrink-0" />
      In order to use Polyflow, you must verify your email!
    </p>
  );
}
