import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { shortenAddress } from '../lib/format';
import { cn } from './ui/cn';

/**
 * A wallet address anywhere in the console, linked to its wallet page (`/console/:projectID/wallets/:address`,
 * docs/wallets.md): the project is the one in the URL. Shortened unless `children` say otherwise.
 */
export function WalletLink({
  address,
  children,
  className,
}: {
  address: string;
  children?: ReactNode;
  className?: string;
}) {
  const { projectID = '' } = useParams();
  return (
    <Link
      to={`/console/${encodeURIComponent(projectID)}/wallets/${address.toLowerCase()}`}
      title={`Wallet ${address}`}
      className={cn('font-mono text-indigo-700 hover:underline', className)}
    >
      {children ?? shortenAddress(address)}
    </Link>
  );
}
