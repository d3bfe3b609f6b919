import { type IncidentRow, IncidentTypeLabels } from '@polyflow/contracts/incidents';
import type { CsvTable } from '../../../lib/csv';

/** The incident list as a file: the page on screen, with the list's filters applied, every value in full. */
export function incidentsCsv(rows: readonly IncidentRow[]): CsvTable {
  return {
    header: [
      'id',
      'last_seen',
      'type',
      'title',
      'severity',
      'status',
      'regression',
      'wallet',
      'occurrences',
      'affected_users',
      'affected_wallets',
      'first_seen',
    ],
    rows: rows.map((row) => [
      row.id,
      row.lastSeen,
      IncidentTypeLabels[row.type],
      row.title,
      row.severity,
      row.status,
      row.isRegression,
      row.wallet,
      row.occurrences,
      row.affectedUsers,
      row.affectedWallets,
      row.firstSeen,
    ]),
  };
}
