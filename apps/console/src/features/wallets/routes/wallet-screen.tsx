import type { Project } from '@polyflow/contracts/projects';
import type { Wallet } from '@polyflow/contracts/wallets';
import { Link } from 'react-router';
import { DOCS } from '../../../components/docs-links';
import { PageHeader } from '../../../components/page-header';
import { Alert } from '../../../components/ui/alert';
import { Card, CardHeader } from '../../../components/ui/card';
import { CopyButton } from '../../../components/ui/copy-button';
import { EmptyState } from '../../../components/ui/empty-state';
import { ArrowLeft, SearchX } from '../../../components/ui/icons';
import { Spinner } from '../../../components/ui/spinner';
import { StatTile } from '../../../components/ui/stat-tile';
import { countOf, countryName, formatDate, formatDateTime } from '../../../lib/format';
import { useWallet } from '../api/get-wallet';
import { StageBadge } from '../components/stage-badge';
import { WalletTimeline } from '../components/wallet-timeline';
import { chainName, formatCount, formatNative, isWalletAddress, nativeSymbol } from '../lib/format';

interface WalletScreenProps {
  project: Project;
  address: string;
  listPath: string;
  incidentPath: (id: string) => string;
}

/** Spec "Wallet page" (docs/wallets.md): one wallet of the project, all time. */
export function WalletScreen({ project, address, listPath, incidentPath }: WalletScreenProps) {
  const isAddress = isWalletAddress(address);
  return (
    <div className="flex animate-panel flex-col gap-4">
      <Link
        to={listPath}
        className="inline-flex items-center gap-1 self-start text-sm font-semibold text-indigo-700"
      >
        <ArrowLeft aria-hidden="true" className="size-4" />
        All wallets
      </Link>
      <PageHeader
        eyebrow={project.name}
        title="Wallet"
        help={{ href: DOCS.wallet, topic: 'what the wallet page shows' }}
      />
      {isAddress ? (
        <WalletBody projectId={project.id} address={address} incidentPath={incidentPath} />
      ) : (
        <EmptyState icon={<SearchX aria-hidden="true" className="size-6" />} title="Not a wallet address">
          “{address.slice(0, 80)}” is not 0x followed by 40 hexadecimal characters.
        </EmptyState>
      )}
    </div>
  );
}

function WalletBody({
  projectId,
  address,
  incidentPath,
}: {
  projectId: string;
  address: string;
  incidentPath: (id: string) => string;
}) {
  const wallet = useWallet(projectId, address);
  if (wallet.isError) {
    return (
      <Alert tone="error">
        Could not load the wallet: {wallet.error.message}{' '}
        <button type="button" className="font-semibold underline" onClick={() => wallet.refetch()}>
          Try again
        </button>
      </Alert>
    );
  }
  if (wallet.isPending) {
    return (
      <p className="flex items-center gap-2 py-8 text-sm text-slate-500" role="status">
        <Spinner /> Loading the wallet…
      </p>
    );
  }
  if (wallet.data === null) {
    return (
      <EmptyState icon={<SearchX aria-hidden="true" className="size-6" />} title="Wallet not seen">
        No event of this project ever carried{' '}
        <span className="font-mono break-all">{address.toLowerCase()}</span>. It may not have connected yet,
        or it was forgotten.
      </EmptyState>
    );
  }
  return (
    <>
      <WalletSummary wallet={wallet.data} />
      <WalletProfileCard wallet={wallet.data} />
      <WalletTimeline projectId={projectId} wallet={wallet.data} incidentPath={incidentPath} />
    </>
  );
}

function perChain(wallet: Wallet, field: 'gasPaidWei' | 'gasBurnedWei') {
  const rows = wallet.gas.filter((chain) => chain.gasPaidWei !== '0' || chain.gasBurnedWei !== '0');
  if (rows.length === 0) return '0';
  return rows.map((chain) => (
    <span key={chain.chainId ?? 'none'} className="block whitespace-normal text-base break-words">
      {formatNative(chain[field])} {nativeSymbol(chain.chainId)}
      <span className="text-xs font-normal text-slate-500"> {chainName(chain.chainId)}</span>
    </span>
  ));
}

function WalletSummary({ wallet }: { wallet: Wallet }) {
  return (
    <Card aria-labelledby="wallet-address">
      <div className="mb-4 flex flex-wrap items-center gap-2">
        <h2
          id="wallet-address"
          className="font-mono text-sm font-semibold break-all text-slate-900 sm:text-base"
        >
          {wallet.address}
        </h2>
        <CopyButton text={wallet.address} label="Copy address" />
        {wallet.stage && <StageBadge stage={wallet.stage} />}
      </div>
      <dl className="grid grid-cols-2 gap-3 lg:grid-cols-3">
        <StatTile
          label="First seen"
          value={<span className="text-base">{formatDate(wallet.firstSeen)}</span>}
          hint={formatDateTime(wallet.firstSeen)}
        />
        <StatTile
          label="Last seen"
          value={<span className="text-base">{formatDate(wallet.lastSeen)}</span>}
          hint={formatDateTime(wallet.lastSeen)}
        />
        <StatTile
          label="Transactions"
          value={formatCount(wallet.transactions)}
          hint={countOf(wallet.sessionCount, 'session')}
        />
        <StatTile
          label="Failed"
          value={formatCount(wallet.reverted + wallet.failedBeforeSubmission)}
          hint={`${formatCount(wallet.reverted)} reverted on chain, ${formatCount(wallet.failedBeforeSubmission)} before submission`}
        />
        <StatTile label="Gas paid" value={perChain(wallet, 'gasPaidWei')} hint="by its mined transactions" />
        <StatTile
          label="Gas burned"
          value={perChain(wallet, 'gasBurnedWei')}
          hint="by reverted transactions"
        />
      </dl>
    </Card>
  );
}

function Facts({ label, values }: { label: string; values: string[] }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-semibold uppercase tracking-wide text-slate-500">{label}</dt>
      <dd className="mt-1 text-sm text-slate-800">{values.length ? values.join(', ') : '—'}</dd>
    </div>
  );
}

function WalletProfileCard({ wallet }: { wallet: Wallet }) {
  const touch = wallet.firstTouch;
  return (
    <Card aria-labelledby="wallet-profile">
      <CardHeader
        titleId="wallet-profile"
        eyebrow="Profile"
        title="Where it came from"
        description={
          wallet.firstConnected
            ? `First connected ${formatDateTime(wallet.firstConnected)}.`
            : 'It never connected: seen on transactions only.'
        }
      />
      <dl className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3">
        <Facts
          label="Source / medium"
          values={[[touch?.source, touch?.medium].filter(Boolean).join(' / ')].filter(Boolean)}
        />
        <Facts label="Campaign" values={touch?.campaign ? [touch.campaign] : []} />
        <Facts label="Referrer" values={touch?.referrer ? [touch.referrer] : ['Direct']} />
        <Facts label="Landing page" values={touch?.landingPath ? [touch.landingPath] : []} />
        <Facts label="Countries" values={wallet.countries.map(countryName)} />
        <Facts label="Browsers" values={wallet.browsers} />
        <Facts label="Wallet providers" values={wallet.providers} />
        <Facts label="Chains" values={wallet.chains.map((chain) => chainName(chain))} />
      </dl>
    </Card>
  );
}
