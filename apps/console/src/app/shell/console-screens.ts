import {
  BarChart3,
  BellRing,
  Blocks,
  Braces,
  Code2,
  Filter,
  History,
  type IconComponent,
  MousePointerClick,
  Radio,
  ShieldAlert,
  UserCog,
  Users,
  Wallet,
} from '../../components/ui/icons';
import { isWalletAddress } from '../../features/wallets/lib/format';

/** The console's screens in the sidebar's order: their path under `console/:projectID` and their name. */
export const CONSOLE_SCREENS: ReadonlyArray<{
  path: string;
  label: string;
  Icon: IconComponent;
  forManagers?: boolean;
}> = [
  { path: 'analytics', label: 'Analytics', Icon: BarChart3 },
  { path: 'live', label: 'Live', Icon: Radio },
  { path: 'wallets', label: 'Wallets', Icon: Wallet },
  { path: 'events', label: 'Events', Icon: MousePointerClick },
  { path: 'funnels', label: 'Funnels', Icon: Filter },
  { path: 'acquisition', label: 'User Acquisition', Icon: Users },
  { path: 'errorlogs', label: 'Incident Tracking', Icon: ShieldAlert },
  { path: 'alerts', label: 'Alerts', Icon: BellRing },
  { path: 'config', label: 'SDK', Icon: Code2 },
  { path: 'members', label: 'Members', Icon: UserCog },
  // Admins and the owner read the audit log; viewers do not see the link.
  { path: 'audit-log', label: 'Audit log', Icon: History, forManagers: true },
  { path: 'uicomponents', label: 'Components', Icon: Blocks },
  { path: 'graphiql', label: 'GraphQL API', Icon: Braces },
];

/** Detail screens, named after the one thing they show. */
const DETAILS: Record<string, string> = { wallets: 'Wallet', errorlogs: 'Incident' };

/**
 * The name of the screen at `screenPath` (the URL after `console/:projectID/`) for the page's title: its
 * sidebar name, or "Wallet 0x…" / "Incident …" for a detail. The empty path is the index, Analytics.
 */
export function consoleScreenTitle(screenPath: string): string | null {
  const [screen = '', detail] = screenPath.split('/');
  const path = screen === '' ? 'analytics' : screen;
  const detailName = DETAILS[path];
  if (detail && detailName) {
    const id = safeDecode(detail);
    // The wallet screen says so when its address is not one: the title says the same, not "Wallet <text>".
    if (path === 'wallets' && !isWalletAddress(id)) return 'Not a wallet address';
    return `${detailName} ${id}`;
  }
  return CONSOLE_SCREENS.find((candidate) => candidate.path === path)?.label ?? null;
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
