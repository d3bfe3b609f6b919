import { DOCS } from '../../../components/docs-links';
import { PageHeader } from '../../../components/page-header';
import { Badge } from '../../../components/ui/badge';
import { Card } from '../../../components/ui/card';
import { PlayCircle, Settings2 } from '../../../components/ui/icons';

const COMPONENTS = [
  {
    name: 'Gas Station',
    description:
      'Offers ways to fill a wallet with gas when the user does not have enough to pay for a transaction.',
    configurable: true,
  },
  {
    name: 'Network Switcher',
    description:
      "Prompts the user to switch when the wallet's network differs from the transaction's network.",
    configurable: true,
  },
  {
    name: 'Connect Wallet',
    description: 'Connects your users to the most popular wallets with one button.',
    configurable: true,
  },
  {
    name: 'Compliance',
    description:
      'Blocks forbidden countries or blacklisted addresses, or asks users to sign a disclaimer first.',
    configurable: true,
  },
  {
    name: 'Error Messages',
    description: 'Parses a reverted transaction and shows the user what went wrong and what to do next.',
    configurable: false,
  },
] as const;

/** 'Coming soon!': every control is visible but inert. */
export function ComponentsScreen() {
  return (
    <div className="flex animate-panel flex-col gap-4">
      <PageHeader
        eyebrow="UI components"
        title="Components"
        help={{ href: DOCS.gettingStarted, topic: 'getting started' }}
      >
        <Badge>Coming soon!</Badge>
      </PageHeader>
      <div className="grid gap-4 md:grid-cols-2 2xl:grid-cols-3">
        {COMPONENTS.map(({ name, description, configurable }) => (
          <Card key={name} aria-label={name} className="flex flex-col gap-3 bg-white/60 opacity-80">
            <div className="flex items-start justify-between gap-3">
              <div>
                <h2 className="text-base font-bold text-slate-900">{name}</h2>
                <Badge className="mt-1">Coming soon!</Badge>
              </div>
              <label className="inline-flex cursor-not-allowed items-center gap-2 text-xs font-semibold uppercase tracking-wide text-slate-500">
                <span className="sr-only">Enable {name}</span>
                <input type="checkbox" role="switch" aria-checked="false" disabled className="sr-only" />
                <span aria-hidden="true" className="relative h-5 w-9 rounded-full bg-slate-300">
                  <span className="absolute top-0.5 left-0.5 size-4 rounded-full bg-white shadow" />
                </span>
                Off
              </label>
            </div>
            <p className="flex-1 text-sm text-slate-600">{description}</p>
            <div className="flex flex-wrap items-center gap-2">
              <button
                type="button"
                disabled
                className="inline-flex h-8 cursor-not-allowed items-center gap-1.5 rounded-lg px-2 text-xs font-semibold text-indigo-400 underline underline-offset-2"
              >
                <PlayCircle aria-hidden="true" className="size-4" />
                Watch Demo
              </button>
              {configurable && (
                <button
                  type="button"
                  disabled
                  className="inline-flex h-8 cursor-not-allowed items-center gap-1.5 rounded-lg bg-white px-3 text-xs font-semibold text-indigo-400 ring-1 ring-inset ring-indigo-200"
                >
                  <Settings2 aria-hidden="true" className="size-4" />
                  Configure
                </button>
              )}
            </div>
          </Card>
        ))}
      </div>
    </div>
  );
}
