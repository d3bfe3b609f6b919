import { createContext, type ReactNode, useContext } from 'react';
import { type CsvFileScope, type CsvTable, csvFileName, toCsv } from '../../lib/csv';
import { saveFile } from '../../lib/save-file';
import { Button } from './button';
import { cn } from './cn';
import { Download } from './icons';

/**
 * "Download CSV" on a table or chart: a file of exactly what it shows. The screen names the file once
 * (project, screen, period) with <CsvScope>; each button names its table and builds the rows on click,
 * from the data on screen (sorted, filtered and paged as shown), so the file never differs from the view.
 */

const CsvScopeContext = createContext<CsvFileScope | null>(null);

export function CsvScope({ scope, children }: { scope: CsvFileScope; children: ReactNode }) {
  return <CsvScopeContext.Provider value={scope}>{children}</CsvScopeContext.Provider>;
}

/** The file name a table's CSV gets on this screen (project, screen, table, period): for a file the server writes. */
export function useCsvFileName(table: string): string {
  const scope = useContext(CsvScopeContext);
  if (!scope) throw new Error('useCsvFileName needs a <CsvScope> around it (project, screen, period).');
  return csvFileName(scope, table);
}

/** Saves a table as an RFC 4180 file. */
export function saveCsv(fileName: string, table: CsvTable): void {
  saveFile(fileName, new Blob([toCsv(table)], { type: 'text/csv;charset=utf-8' }));
}

interface DownloadCsvButtonProps {
  /** The table or chart as the screen titles it ("Countries"): the button's accessible name and the file's. */
  table: string;
  /** The rows as shown; called on click. */
  build: () => CsvTable;
  /** While the data loads or failed: nothing to download yet. */
  disabled?: boolean;
  className?: string;
}

export function DownloadCsvButton({ table, build, disabled = false, className }: DownloadCsvButtonProps) {
  const scope = useContext(CsvScopeContext);
  if (!scope) throw new Error('DownloadCsvButton needs a <CsvScope> around it (project, screen, period).');
  return (
    <Button
      variant="ghost"
      size="sm"
      disabled={disabled}
      aria-label={`Download CSV: ${table}`}
      title={`Download ${table} as CSV`}
      onClick={() => saveCsv(csvFileName(scope, table), build())}
      className={cn('shrink-0 px-2', className)}
    >
      <Download aria-hidden="true" className="size-3.5" />
      <span>
        <span className="max-sm:sr-only">Download </span>CSV
      </span>
    </Button>
  );
}
