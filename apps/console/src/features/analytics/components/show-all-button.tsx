import type { ReactNode } from 'react';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { cn } from '../../../components/ui/cn';
import { Modal } from '../../../components/ui/modal';
import { Breakable } from '../../../lib/break-points';

export interface ShowAllColumn<Row> {
  header: string;
  cell: (row: Row) => ReactNode;
  isNumber?: boolean;
}

interface ShowAllButtonProps<Row> {
  /** The card's title; the dialog is "<title>: all <n>". */
  title: string;
  rows: readonly Row[];
  columns: ReadonlyArray<ShowAllColumn<Row>>;
  keyOf: (row: Row) => string;
  /** What the figures are of (the whole the shares are of, a cap of the server). */
  note?: ReactNode;
}

/** "Show all (n)" beside a top-N card: every row the server returned, in a dialog, with the same columns. */
export function ShowAllButton<Row>({ title, rows, columns, keyOf, note }: ShowAllButtonProps<Row>) {
  const [isOpen, setIsOpen] = useState(false);
  const dialogTitle = `${title}: all ${rows.length.toLocaleString('en-US')}`;
  return (
    <>
      {/* The visible words start the accessible name (WCAG 2.5.3); the card's title follows for screen readers. */}
      <Button size="sm" variant="ghost" onClick={() => setIsOpen(true)}>
        Show all ({rows.length.toLocaleString('en-US')})<span className="sr-only"> {title}</span>
      </Button>
      <Modal isOpen={isOpen} title={dialogTitle} onClose={() => setIsOpen(false)} className="max-w-2xl">
        {note && <p className="mb-3 text-xs text-slate-600">{note}</p>}
        <div className="max-h-[60vh] overflow-y-auto">
          <table className="w-full text-left text-sm">
            <thead className="sticky top-0 bg-white">
              <tr className="bg-indigo-50 text-[0.7rem] uppercase tracking-wide text-indigo-800">
                {columns.map((column) => (
                  <th
                    key={column.header}
                    scope="col"
                    className={cn('px-2 py-2 font-semibold sm:px-3', column.isNumber && 'text-right')}
                  >
                    {column.header}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {rows.map((row) => (
                <tr key={keyOf(row)}>
                  {columns.map((column) => {
                    const content = column.cell(row);
                    return (
                      <td
                        key={column.header}
                        className={cn(
                          'px-2 py-1.5 sm:px-3',
                          column.isNumber
                            ? 'text-right text-slate-900 tabular-nums'
                            : 'break-words text-slate-800',
                        )}
                      >
                        {/* A name breaks at its seams (`_`, `/`, `.`, camelCase), not inside a word. */}
                        {typeof content === 'string' && !column.isNumber ? (
                          <Breakable text={content} />
                        ) : (
                          content
                        )}
                      </td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </Modal>
    </>
  );
}
