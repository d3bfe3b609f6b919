import type { TransactionDetail, TransactionRow } from '@polyflow/contracts/analytics';
import type { ReactNode } from 'react';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { cn } from '../../../components/ui/cn';
import { CopyButton } from '../../../components/ui/copy-button';
import { ExternalLink } from '../../../components/ui/icons';
import { Modal } from '../../../components/ui/modal';
import { Spinner } from '../../../components/ui/spinner';
import { WalletLink } from '../../../components/wallet-link';
import { countryName, displayTimeZone, formatDateTime } from '../../../lib/format';
import { useTransaction } from '../api/get-transaction';
import { chainLabel } from '../lib/chains';
import { formatBigCount, formatEth, formatWeiAsGwei, NOT_AVAILABLE } from '../lib/format';
import { stageNotes } from '../lib/stage-notes';

const STATUS_TONES: Record<TransactionDetail['status'], string> = {
  requested: 'bg-slate-100 text-slate-700',
  submitted: 'bg-indigo-50 text-indigo-700',
  confirmed: 'bg-emerald-50 text-emerald-700',
  rejected: 'bg-amber-50 text-amber-800',
  replaced: 'bg-sky-50 text-sky-700',
  dropped: 'bg-orange-50 text-orange-700',
  reverted: 'bg-red-50 text-red-700',
  failed: 'bg-red-50 text-red-700',
};

/** A status as the console writes it ("Confirmed"), not the wire's code ("confirmed"). */
export const STATUS_NAMES: Record<TransactionDetail['status'], string> = {
  requested: 'Requested',
  submitted: 'Submitted',
  confirmed: 'Confirmed',
  rejected: 'Rejected',
  replaced: 'Replaced',
  dropped: 'Dropped',
  reverted: 'Reverted',
  failed: 'Failed',
};

export function StatusBadge({ status }: { status: TransactionDetail['status'] }) {
  return (
    <span className={cn('rounded-full px-2.5 py-0.5 text-xs font-semibold', STATUS_TONES[status])}>
      {STATUS_NAMES[status]}
    </span>
  );
}

/** Inspect: the full record of one transaction, asked for by its id when the dialog opens. */
export function TransactionDetailsModal({
  projectId,
  row,
  onClose,
}: {
  projectId: string;
  row: TransactionRow | null;
  onClose: () => void;
}) {
  const query = useTransaction(projectId, row?.id ?? null);
  return (
    <Modal isOpen={row !== null} title="Transaction" onClose={onClose} className="max-w-2xl">
      {query.isPending ? (
        <p className="flex items-center gap-2 text-sm text-slate-600">
          <Spinner /> Loading the transaction…
        </p>
      ) : query.isError ? (
        <Alert tone="error">
          Could not load the transaction: {query.error.message}{' '}
          <Button size="sm" variant="secondary" onClick={() => query.refetch()}>
            Retry
          </Button>
        </Alert>
      ) : query.data === null ? (
        <Alert tone="warning">This transaction is no longer in the project's events.</Alert>
      ) : (
        <TransactionDetails detail={query.data} />
      )}
    </Modal>
  );
}

function Field({
  label,
  children,
  mono = false,
  className,
}: {
  label: string;
  children: ReactNode;
  mono?: boolean;
  className?: string;
}) {
  return (
    <div className={cn('min-w-0', className)}>
      <dt className="text-[0.7rem] font-semibold uppercase tracking-wide text-indigo-700">{label}</dt>
      <dd className={cn('break-all text-sm text-slate-900', mono && 'font-mono text-xs')}>
        {children ?? NOT_AVAILABLE}
      </dd>
    </div>
  );
}

function TransactionDetails({ detail }: { detail: TransactionDetail }) {
  const func = detail.functionName ?? detail.selector;
  const { notes, calls } = stageNotes(detail);
  return (
    <div className="flex flex-col gap-5">
      <div className="flex flex-wrap items-center gap-2 text-sm text-slate-700">
        <StatusBadge status={detail.status} />
        <span>{detail.type}</span>
        <span aria-hidden="true">·</span>
        <span>{chainLabel(detail.chainId)}</span>
        <span aria-hidden="true">·</span>
        <span>{formatDateTime(detail.time)}</span>
      </div>

      <div className="flex flex-col gap-1">
        <p className="text-[0.7rem] font-semibold uppercase tracking-wide text-indigo-700">Hash</p>
        {detail.hash ? (
          <div className="flex items-center gap-2">
            <code className="min-w-0 flex-1 break-all rounded-lg bg-slate-50 px-3 py-2 text-xs text-slate-900 ring-1 ring-inset ring-slate-200">
              {detail.hash}
            </code>
            <CopyButton text={detail.hash} label="Copy transaction hash" />
          </div>
        ) : (
          <p className="text-sm text-slate-600">None: the transaction never reached the chain.</p>
        )}
        {detail.receipts.length > 1 && (
          <p className="text-xs text-slate-600">
            The last of its {detail.receipts.length} receipts; each one is listed under Receipts.
          </p>
        )}
        {detail.explorerUrl && (
          <a
            href={detail.explorerUrl}
            target="_blank"
            rel="noopener noreferrer"
            className="inline-flex w-fit items-center gap-1 text-sm font-semibold text-indigo-700 underline"
          >
            View on block explorer <ExternalLink aria-hidden="true" className="size-3.5" />
          </a>
        )}
      </div>

      {detail.revertReason && (
        <Alert tone="error">
          <span className="font-semibold">
            {detail.status === 'reverted' ? 'Revert reason' : 'Why it failed'}:
          </span>{' '}
          <span className="font-mono break-words">{detail.revertReason}</span>
        </Alert>
      )}

      <dl className="grid grid-cols-1 gap-x-6 gap-y-3 sm:grid-cols-2">
        <Field label="From" mono>
          {(detail.from ?? detail.wallet) && (
            <WalletLink address={(detail.from ?? detail.wallet) as string}>
              {detail.from ?? detail.wallet}
            </WalletLink>
          )}
        </Field>
        <Field label="To" mono>
          {detail.to}
        </Field>
        <Field label="Value">{formatEth(detail.value)}</Field>
        <Field label="Function" mono>
          {func}
        </Field>
        <Field label="Block">{formatBigCount(detail.blockNumber)}</Field>
        <Field label="Nonce">{formatBigCount(detail.nonce)}</Field>
        <Field label="Gas limit">{formatBigCount(detail.gasLimit)}</Field>
        <Field label="Gas used">{formatBigCount(detail.gasUsed)}</Field>
        <Field label="Gas price">{formatWeiAsGwei(detail.gasPrice)}</Field>
        <Field label="Effective gas price">{formatWeiAsGwei(detail.effectiveGasPrice)}</Field>
        <Field label="Max fee per gas">{formatWeiAsGwei(detail.maxFeePerGas)}</Field>
        <Field label="Max priority fee per gas">{formatWeiAsGwei(detail.maxPriorityFeePerGas)}</Field>
        <Field label="Fee">{formatEth(detail.fee)}</Field>
        <Field label="Wallet provider">{detail.walletProvider ?? 'Unknown'}</Field>
        <Field label="Country">{countryName(detail.country)}</Field>
        <Field label="Browser / OS">
          {[detail.browser ?? 'Unknown', detail.os ?? 'Unknown'].join(' / ')}
        </Field>
        <Field label="Page" mono>
          {detail.path}
        </Field>
      </dl>

      {detail.receipts.length > 1 && <Receipts receipts={detail.receipts} />}

      <section aria-label="Stages">
        <p className="mb-2 text-[0.7rem] font-semibold uppercase tracking-wide text-indigo-700">
          Stages ({displayTimeZone()})
        </p>
        {calls > 1 ? (
          <p className="mb-2 text-xs text-slate-600">
            A batch of {calls} calls (EIP-5792): a Requested stage per call, a Confirmed or Reverted stage per
            receipt, then the outcome of the whole batch.
          </p>
        ) : (
          notes.some((note) => note !== null) && (
            <p className="mb-2 text-xs text-slate-600">
              A stage reported more than once is listed each time.
            </p>
          )
        )}
        <ol className="flex flex-col gap-2 border-l-2 border-indigo-100 pl-4">
          {detail.stages.map((stage, index) => (
            // Stages repeat (a batch's calls share one request time): the position tells them apart.
            // biome-ignore lint/suspicious/noArrayIndexKey: the stages are a fixed list, never reordered
            <li key={index} className="text-sm">
              <div className="flex flex-wrap items-center gap-2">
                <StatusBadge status={stage.stage} />
                {notes[index] && <span className="text-xs font-medium text-slate-700">{notes[index]}</span>}
                <time dateTime={stage.time} className="text-slate-600 tabular-nums">
                  {formatDateTime(stage.time)}
                </time>
              </div>
              {(stage.errorCode !== null || stage.errorMessage) && (
                <p className="mt-1 text-xs text-red-700">
                  {stage.errorCode !== null && (
                    <span className="font-semibold">Error {stage.errorCode}: </span>
                  )}
                  {stage.errorMessage}
                </p>
              )}
            </li>
          ))}
        </ol>
      </section>
    </div>
  );
}

/**
 * A batch mined as several transactions: each receipt with its hash, block, gas, price and fee, so that the
 * Fee above (their sum) can be checked on the explorer, receipt by receipt.
 */
function Receipts({ receipts }: { receipts: TransactionDetail['receipts'] }) {
  return (
    <section aria-labelledby="transaction-receipts">
      <p
        id="transaction-receipts"
        className="text-[0.7rem] font-semibold uppercase tracking-wide text-indigo-700"
      >
        Receipts ({receipts.length})
      </p>
      <p className="mb-2 text-xs text-slate-600">
        Mined as {receipts.length} transactions, each at its own block's gas price; the Fee is their sum.
      </p>
      <ol className="flex flex-col gap-3">
        {receipts.map((receipt, index) => (
          <li
            key={receipt.hash ?? `receipt-${index}`}
            className="flex flex-col gap-2 rounded-lg p-3 ring-1 ring-inset ring-slate-200"
          >
            <div className="flex min-w-0 items-center gap-2">
              <StatusBadge status={receipt.status} />
              <code className="min-w-0 flex-1 break-all text-xs text-slate-900">
                {receipt.hash ?? 'No hash reported'}
              </code>
              {receipt.hash && <CopyButton text={receipt.hash} label={`Copy receipt hash ${receipt.hash}`} />}
            </div>
            <dl className="grid grid-cols-2 gap-x-6 gap-y-2">
              <Field label="Block">{formatBigCount(receipt.blockNumber)}</Field>
              <Field label="Gas used">{formatBigCount(receipt.gasUsed)}</Field>
              <Field label="Gas price" className="col-span-2 sm:col-span-1">
                {formatWeiAsGwei(receipt.effectiveGasPrice)}
              </Field>
              <Field label="Fee" className="col-span-2 sm:col-span-1">
                {formatEth(receipt.fee)}
              </Field>
            </dl>
            {receipt.explorerUrl && (
              <a
                href={receipt.explorerUrl}
                target="_blank"
                rel="noopener noreferrer"
                aria-label={`View receipt ${receipt.hash} on block explorer`}
                className="inline-flex w-fit items-center gap-1 text-sm font-semibold text-indigo-700 underline"
              >
                View on block explorer <ExternalLink aria-hidden="true" className="size-3.5" />
              </a>
            )}
          </li>
        ))}
      </ol>
    </section>
  );
}
