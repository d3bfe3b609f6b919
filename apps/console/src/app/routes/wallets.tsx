import { WalletsScreen } from '../../features/wallets/routes/wallets-screen';
import { useConsoleContext } from './console-outlet';

export function WalletsPage() {
  const { project, basePath } = useConsoleContext();
  return <WalletsScreen project={project} walletPath={(address) => `${basePath}/wallets/${address}`} />;
}
