import { LifecycleStageLabels, LifecycleStages } from '@polyflow/contracts/wallets';
import { type FormEvent, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import type { WalletFilters } from '../api/get-wallets';

const SEARCH = /^(0x)?[0-9a-fA-F]{6,40}$/;

/** The Wallets list's own filters (search, stage, chain, country, source, campaign), applied together. */
export function WalletFiltersForm({
  filters,
  onChange,
}: {
  filters: WalletFilters;
  onChange: (changes: Record<string, string | null>) => void;
}) {
  const [search, setSearch] = useState(filters.search ?? '');
  const [source, setSource] = useState(filters.source ?? '');
  const [campaign, setCampaign] = useState(filters.campaign ?? '');
  const [country, setCountry] = useState(filters.country ?? '');
  const [chain, setChain] = useState(filters.chainId?.toString() ?? '');
  const searchError =
    search.trim() && !SEARCH.test(search.trim()) ? 'A full address or its first 6 hex characters' : undefined;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (searchError) return;
    onChange({ search: search.trim(), source, campaign, country, chain });
  };
  // Columns by the card's own width (a container query: the sidebar takes a share of the window from
  // `lg` up), so that no field is too narrow for its hint ("Any stage", "utm_source").
  return (
    <div className="@container">
      <form
        onSubmit={submit}
        className="grid grid-cols-1 gap-3 @md:grid-cols-2 @2xl:grid-cols-3 @5xl:grid-cols-6"
        aria-label="Wallet filters"
      >
        <Input
          label="Address"
          placeholder="0x… (6+ hex)"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          error={searchError}
          className="@5xl:col-span-2"
        />
        <div className="flex flex-col gap-1.5">
          <label
            htmlFor="wallet-stage"
            className="text-xs font-semibold uppercase tracking-wide text-slate-600"
          >
            Stage
          </label>
          <select
            id="wallet-stage"
            className="h-10 rounded-lg bg-white px-3 text-sm ring-1 ring-inset ring-slate-300"
            value={filters.stage ?? ''}
            onChange={(e) => onChange({ stage: e.target.value || null })}
          >
            <option value="">Any stage</option>
            {LifecycleStages.map((stage) => (
              <option key={stage} value={stage}>
                {LifecycleStageLabels[stage]}
              </option>
            ))}
          </select>
        </div>
        <Input
          label="Chain id"
          inputMode="numeric"
          placeholder="Any"
          value={chain}
          onChange={(e) => setChain(e.target.value.replace(/\D/g, ''))}
        />
        <Input
          label="Country"
          placeholder="e.g. DE"
          maxLength={2}
          value={country}
          onChange={(e) => setCountry(e.target.value)}
        />
        <Input
          label="Source"
          placeholder="utm_source"
          value={source}
          onChange={(e) => setSource(e.target.value)}
        />
        <Input
          label="Campaign"
          placeholder="utm_campaign"
          value={campaign}
          onChange={(e) => setCampaign(e.target.value)}
          className="@5xl:col-span-2"
        />
        <div className="flex items-end gap-2 @md:col-span-2 @2xl:col-span-1 @5xl:col-span-2">
          <Button type="submit">Apply filters</Button>
          <Button
            type="button"
            variant="ghost"
            onClick={() => {
              setSearch('');
              setSource('');
              setCampaign('');
              setCountry('');
              setChain('');
              onChange({
                search: null,
                source: null,
                campaign: null,
                country: null,
                chain: null,
                stage: null,
              });
            }}
          >
            Clear
          </Button>
        </div>
      </form>
    </div>
  );
}
