import {
  type IncidentDetail,
  type IncidentOccurrence,
  IncidentStatusLabels,
  IncidentTypeLabels,
} from '@polyflow/contracts/incidents';
import type { CsvTable, CsvValue } from '../../../lib/csv';
import { formatDateTime, formatPercent } from '../../../lib/format';

/** A figure of the incident as the screen shows it (`text`) and as its file holds it (`value`). */
export interface IncidentFact {
  label: string;
  text: string;
  value: CsvValue;
}

const count = (value: number) => value.toLocaleString('en-US');
const fact = (label: string, value: number | string, text?: string): IncidentFact => ({
  label,
  value,
  text: text ?? (typeof value === 'number' ? count(value) : formatDateTime(value)),
});

/** "In this period": the figures of the occurrences in the list's period. */
export function periodFacts(incident: IncidentDetail): IncidentFact[] {
  const facts = [
    fact('Occurrences', incident.occurrences),
    fact('Affected users', incident.affectedUsers),
    fact('Affected wallets', incident.affectedWallets),
    fact('Days with an occurrence', incident.activeDays),
    fact('Last seen', incident.lastSeen),
  ];
  // A frontend error is never blamed for a failed transaction (docs/acquisition-and-incidents.md): no
  // "Failed transactions 0" tile for something that cannot fail one.
  if (incident.type === 'wallet')
    facts.splice(3, 0, fact('Failed transactions', incident.failedTransactions));
  return facts;
}

/** "Its whole life": the figures its severity is decided from. */
export function lifetimeFacts({ lifetime }: IncidentDetail): IncidentFact[] {
  return [
    fact('First seen', lifetime.firstSeen),
    fact('Last seen', lifetime.lastSeen),
    fact('Occurrences', lifetime.occurrences),
    fact(
      'Reach',
      lifetime.reach,
      `${count(lifetime.affectedUsers)} of ${count(lifetime.activeUsers)} active users (${formatPercent(lifetime.reach)})`,
    ),
    fact('Failed transactions', lifetime.failedTransactions),
  ];
}

/** The wallet the screen names: the occurrence's, or the one last affected when it had none. */
export const incidentWallet = (incident: IncidentDetail) => incident.latest.wallet ?? incident.wallet;

/**
 * The overview card as a file: one line per figure (`section`, `figure`, `value`), every value in full
 * (ISO times, plain numbers, the reach as a ratio with the two counts it is made of).
 */
export function incidentFiguresCsv(incident: IncidentDetail): CsvTable {
  const { lifetime } = incident;
  const rows: CsvValue[][] = [
    ['incident', 'Incident ID', incident.id],
    ['incident', 'Type', IncidentTypeLabels[incident.type]],
    ['incident', 'Title', incident.title],
    ['incident', 'Time of the latest occurrence', incident.latest.time],
    ['incident', 'Severity', incident.severity],
    ['incident', 'Regression', incident.isRegression],
    ['incident', 'Status', IncidentStatusLabels[incident.status]],
    ['incident', 'Status changed at', incident.statusChangedAt],
    ['incident', 'User wallet', incidentWallet(incident)],
    ['period', 'From', incident.from],
    ['period', 'To', incident.to],
    ...periodFacts(incident).map(({ label, value }) => ['period', label, value]),
    ...lifetimeFacts(incident).flatMap(({ label, value }): CsvValue[][] =>
      label === 'Reach'
        ? [
            ['whole life', 'Affected users', lifetime.affectedUsers],
            ['whole life', 'Active users', lifetime.activeUsers],
            ['whole life', label, value],
          ]
        : [['whole life', label, value]],
    ),
  ];
  return { header: ['section', 'figure', 'value'], rows };
}

/** The wallet state card as a file: one row, the balance also in wei, the chain by id and by name. */
export function walletStateCsv({ walletState: state }: IncidentOccurrence): CsvTable {
  return {
    header: ['gas_balance', 'gas_balance_wei', 'symbol', 'nonce', 'network', 'chain_id', 'wallet_provider'],
    rows: [
      [
        state.gasBalance,
        state.gasBalanceWei,
        state.symbol,
        state.nonce,
        state.network,
        state.chainId,
        state.walletProvider,
      ],
    ],
  };
}

/** The timeline as a file: the session's events before the error, oldest first, then the error itself. */
export function trailCsv(occurrence: IncidentOccurrence): CsvTable {
  return {
    header: ['time', 'type', 'description'],
    rows: [
      ...occurrence.trail.map((event) => [event.time, event.type, event.description]),
      [occurrence.time, 'error', occurrence.message],
    ],
  };
}
