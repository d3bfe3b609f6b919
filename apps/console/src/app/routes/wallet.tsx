import { useParams } from 'react-router';
import { WalletScreen } from '../../features/wallets/routes/wallet-screen';
import { useConsoleContext } from './console-outlet';

export function WalletPage() {
  const { project, basePath } = useConsoleContext();
  const { address = '' } = useParams();
  return (
    <WalletScreen
      project={project}
      address={address}
      listPath={`${basePath}/wallets`}
      incidentPath={(id) => `${basePath}/errorlogs/${encodeURIComponent(id)}`}
    />
  );
}
