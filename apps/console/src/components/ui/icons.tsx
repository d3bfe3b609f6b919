import activityData from '@iconify-icons/lucide/activity';
import arrowDownData from '@iconify-icons/lucide/arrow-down';
import arrowDownRightData from '@iconify-icons/lucide/arrow-down-right';
import arrowLeftData from '@iconify-icons/lucide/arrow-left';
import arrowRightData from '@iconify-icons/lucide/arrow-right';
import arrowRightLeftData from '@iconify-icons/lucide/arrow-right-left';
import arrowUpData from '@iconify-icons/lucide/arrow-up';
import arrowUpDownData from '@iconify-icons/lucide/arrow-up-down';
import arrowUpRightData from '@iconify-icons/lucide/arrow-up-right';
import bellRingData from '@iconify-icons/lucide/bell-ring';
import blocksData from '@iconify-icons/lucide/blocks';
import bookOpenData from '@iconify-icons/lucide/book-open';
import bracesData from '@iconify-icons/lucide/braces';
import calendarRangeData from '@iconify-icons/lucide/calendar-range';
import chartColumnData from '@iconify-icons/lucide/chart-column';
import chartLineData from '@iconify-icons/lucide/chart-line';
import checkData from '@iconify-icons/lucide/check';
import chevronDownData from '@iconify-icons/lucide/chevron-down';
import chevronRightData from '@iconify-icons/lucide/chevron-right';
import chevronsUpDownData from '@iconify-icons/lucide/chevrons-up-down';
import circleCheckData from '@iconify-icons/lucide/circle-check';
import circlePlayData from '@iconify-icons/lucide/circle-play';
import circleQuestionMarkData from '@iconify-icons/lucide/circle-question-mark';
import circleXData from '@iconify-icons/lucide/circle-x';
import cloudUploadData from '@iconify-icons/lucide/cloud-upload';
import codeXmlData from '@iconify-icons/lucide/code-xml';
import copyData from '@iconify-icons/lucide/copy';
import crownData from '@iconify-icons/lucide/crown';
import downloadData from '@iconify-icons/lucide/download';
import externalLinkData from '@iconify-icons/lucide/external-link';
import filePenLineData from '@iconify-icons/lucide/file-pen-line';
import flagData from '@iconify-icons/lucide/flag';
import folderKanbanData from '@iconify-icons/lucide/folder-kanban';
import folderPlusData from '@iconify-icons/lucide/folder-plus';
import folderXData from '@iconify-icons/lucide/folder-x';
import funnelData from '@iconify-icons/lucide/funnel';
import globeData from '@iconify-icons/lucide/globe';
import hashData from '@iconify-icons/lucide/hash';
import infoData from '@iconify-icons/lucide/info';
import keyRoundData from '@iconify-icons/lucide/key-round';
import keySquareData from '@iconify-icons/lucide/key-square';
import link2Data from '@iconify-icons/lucide/link-2';
import logOutData from '@iconify-icons/lucide/log-out';
import mailData from '@iconify-icons/lucide/mail';
import mailCheckData from '@iconify-icons/lucide/mail-check';
import messageSquareData from '@iconify-icons/lucide/message-square';
import minusData from '@iconify-icons/lucide/minus';
import mousePointerClickData from '@iconify-icons/lucide/mouse-pointer-click';
import octagonAlertData from '@iconify-icons/lucide/octagon-alert';
import pauseData from '@iconify-icons/lucide/pause';
import pencilData from '@iconify-icons/lucide/pencil';
import playData from '@iconify-icons/lucide/play';
import plusData from '@iconify-icons/lucide/plus';
import radioData from '@iconify-icons/lucide/radio';
import refreshCwData from '@iconify-icons/lucide/refresh-cw';
import rotateCcwData from '@iconify-icons/lucide/rotate-ccw';
import rotateCcwClockData from '@iconify-icons/lucide/rotate-ccw-clock';
import rotateCwData from '@iconify-icons/lucide/rotate-cw';
import searchData from '@iconify-icons/lucide/search';
import searchXData from '@iconify-icons/lucide/search-x';
import sendData from '@iconify-icons/lucide/send';
import settings2Data from '@iconify-icons/lucide/settings-2';
import shieldAlertData from '@iconify-icons/lucide/shield-alert';
import shieldCheckData from '@iconify-icons/lucide/shield-check';
import sparklesData from '@iconify-icons/lucide/sparkles';
import tagData from '@iconify-icons/lucide/tag';
import trashData from '@iconify-icons/lucide/trash';
import triangleAlertData from '@iconify-icons/lucide/triangle-alert';
import userCogData from '@iconify-icons/lucide/user-cog';
import userMinusData from '@iconify-icons/lucide/user-minus';
import userRoundData from '@iconify-icons/lucide/user-round';
import userXData from '@iconify-icons/lucide/user-x';
import usersData from '@iconify-icons/lucide/users';
import walletData from '@iconify-icons/lucide/wallet';
import webhookData from '@iconify-icons/lucide/webhook';
import xData from '@iconify-icons/lucide/x';
import type { SVGProps } from 'react';

/**
 * The console's icons: Lucide's, drawn from the per-icon data of `@iconify-icons/lucide` (a few kB each, 9 MB
 * installed instead of lucide-react's 51 MB, which a first start installs to build the console). They render
 * what lucide-react rendered: a 24 px `<svg class="lucide lucide-NAME …">`, sized by the caller's classes,
 * stroked in `currentColor`, hidden from assistive technology unless given an accessible name. Names are the
 * ones the console used from lucide-react; add an icon here (its Lucide name) before using it.
 */
export type IconProps = Omit<SVGProps<SVGSVGElement>, 'children' | 'dangerouslySetInnerHTML'>;
export type IconComponent = ((props: IconProps) => React.JSX.Element) & { displayName?: string };

/** As lucide-react: an icon with an accessible name (aria-*, role, title) is not hidden. */
function hasAccessibleName(props: IconProps): boolean {
  return Object.keys(props).some((key) => key.startsWith('aria-') || key === 'role' || key === 'title');
}

function lucideIcon(
  name: string,
  { body, width = 24, height = 24 }: { body: string; width?: number; height?: number },
): IconComponent {
  // biome-ignore lint/correctness/noComponentHookFactories: called once per icon, at module level, below
  const Icon: IconComponent = ({ className, ...props }) => (
    <svg
      xmlns="http://www.w3.org/2000/svg"
      width={24}
      height={24}
      viewBox={`0 0 ${width} ${height}`}
      fill="none"
      aria-hidden={hasAccessibleName(props) ? undefined : true}
      {...props}
      className={className ? `lucide lucide-${name} ${className}` : `lucide lucide-${name}`}
      // biome-ignore lint/security/noDangerouslySetInnerHtml: the icon's paths, fixed data of @iconify-icons/lucide
      dangerouslySetInnerHTML={{ __html: body }}
    />
  );
  Icon.displayName = name;
  return Icon;
}

export const Activity = lucideIcon('activity', activityData);
export const AlertOctagon = lucideIcon('octagon-alert', octagonAlertData);
export const AlertTriangle = lucideIcon('triangle-alert', triangleAlertData);
export const ArrowDown = lucideIcon('arrow-down', arrowDownData);
export const ArrowDownRight = lucideIcon('arrow-down-right', arrowDownRightData);
export const ArrowLeft = lucideIcon('arrow-left', arrowLeftData);
export const ArrowRight = lucideIcon('arrow-right', arrowRightData);
export const ArrowRightLeft = lucideIcon('arrow-right-left', arrowRightLeftData);
export const ArrowUp = lucideIcon('arrow-up', arrowUpData);
export const ArrowUpDown = lucideIcon('arrow-up-down', arrowUpDownData);
export const ArrowUpRight = lucideIcon('arrow-up-right', arrowUpRightData);
export const BarChart3 = lucideIcon('chart-column', chartColumnData);
export const BellRing = lucideIcon('bell-ring', bellRingData);
export const Blocks = lucideIcon('blocks', blocksData);
export const BookOpen = lucideIcon('book-open', bookOpenData);
export const Braces = lucideIcon('braces', bracesData);
export const CalendarRange = lucideIcon('calendar-range', calendarRangeData);
export const Check = lucideIcon('check', checkData);
export const CheckCircle2 = lucideIcon('circle-check', circleCheckData);
export const ChevronDown = lucideIcon('chevron-down', chevronDownData);
export const ChevronRight = lucideIcon('chevron-right', chevronRightData);
export const ChevronsUpDown = lucideIcon('chevrons-up-down', chevronsUpDownData);
export const CircleHelp = lucideIcon('circle-question-mark', circleQuestionMarkData);
export const Code2 = lucideIcon('code-xml', codeXmlData);
export const Copy = lucideIcon('copy', copyData);
export const Crown = lucideIcon('crown', crownData);
export const Download = lucideIcon('download', downloadData);
export const ExternalLink = lucideIcon('external-link', externalLinkData);
export const FileSignature = lucideIcon('file-pen-line', filePenLineData);
export const Filter = lucideIcon('funnel', funnelData);
export const Flag = lucideIcon('flag', flagData);
export const FolderKanban = lucideIcon('folder-kanban', folderKanbanData);
export const FolderPlus = lucideIcon('folder-plus', folderPlusData);
export const FolderX = lucideIcon('folder-x', folderXData);
export const Globe = lucideIcon('globe', globeData);
export const Hash = lucideIcon('hash', hashData);
export const History = lucideIcon('rotate-ccw-clock', rotateCcwClockData);
export const Info = lucideIcon('info', infoData);
export const KeyRound = lucideIcon('key-round', keyRoundData);
export const KeySquare = lucideIcon('key-square', keySquareData);
export const LineChart = lucideIcon('chart-line', chartLineData);
export const Link2 = lucideIcon('link-2', link2Data);
export const LogOut = lucideIcon('log-out', logOutData);
export const Mail = lucideIcon('mail', mailData);
export const MailCheck = lucideIcon('mail-check', mailCheckData);
export const MessageSquare = lucideIcon('message-square', messageSquareData);
export const Minus = lucideIcon('minus', minusData);
export const MousePointerClick = lucideIcon('mouse-pointer-click', mousePointerClickData);
export const Pause = lucideIcon('pause', pauseData);
export const Pencil = lucideIcon('pencil', pencilData);
export const Play = lucideIcon('play', playData);
export const PlayCircle = lucideIcon('circle-play', circlePlayData);
export const Plus = lucideIcon('plus', plusData);
export const Radio = lucideIcon('radio', radioData);
export const RefreshCw = lucideIcon('refresh-cw', refreshCwData);
export const RotateCcw = lucideIcon('rotate-ccw', rotateCcwData);
export const RotateCw = lucideIcon('rotate-cw', rotateCwData);
export const Search = lucideIcon('search', searchData);
export const SearchX = lucideIcon('search-x', searchXData);
export const Send = lucideIcon('send', sendData);
export const Settings2 = lucideIcon('settings-2', settings2Data);
export const ShieldAlert = lucideIcon('shield-alert', shieldAlertData);
export const ShieldCheck = lucideIcon('shield-check', shieldCheckData);
export const Sparkles = lucideIcon('sparkles', sparklesData);
export const Tag = lucideIcon('tag', tagData);
export const Trash2 = lucideIcon('trash', trashData);
export const TriangleAlert = lucideIcon('triangle-alert', triangleAlertData);
export const UploadCloud = lucideIcon('cloud-upload', cloudUploadData);
export const UserCog = lucideIcon('user-cog', userCogData);
export const UserMinus = lucideIcon('user-minus', userMinusData);
export const UserRound = lucideIcon('user-round', userRoundData);
export const UserX = lucideIcon('user-x', userXData);
export const Users = lucideIcon('users', usersData);
export const Wallet = lucideIcon('wallet', walletData);
export const Webhook = lucideIcon('webhook', webhookData);
export const X = lucideIcon('x', xData);
export const XCircle = lucideIcon('circle-x', circleXData);
