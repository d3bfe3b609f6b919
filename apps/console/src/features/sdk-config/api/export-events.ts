import { useMutation } from '@tanstack/react-query';
import { type ApiError, apiDownload } from '../../../lib/api-client';

export type ExportFormat = 'ndjson' | 'csv';

export interface ExportRequest {
  projectId: string;
  /** ISO date-times, [from, to). */
  from: string;
  to: string;
  format: ExportFormat;
  /** Adds `local_time`, each event's time in the project's zone. */
  localTime?: boolean;
}

export interface ExportedFile {
  blob: Blob;
  fileName: string;
  /** Events in the file: NDJSON lines, or CSV records after the header. */
  events: number;
}

/** CSV records (RFC 4180: a quoted field may hold line breaks), less the header. */
export function countCsvRecords(text: string): number {
  let records = 0;
  let isQuoted = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    if (char === '"') isQuoted = !isQuoted;
    else if (char === '\n' && !isQuoted) records++;
  }
  return Math.max(0, records - 1);
}

/** The raw export (docs/data-access-and-privacy.md): every stored event of the range, every column. */
export async function exportEvents({
  projectId,
  from,
  to,
  format,
  localTime = false,
}: ExportRequest): Promise<ExportedFile> {
  const query = new URLSearchParams({ from, to, format, ...(localTime && { localTime: 'true' }) });
  const { blob, fileName } = await apiDownload(
    `/projects/${encodeURIComponent(projectId)}/export/events?${query}`,
  );
  const text = await blob.text();
  const events =
    format === 'csv' ? countCsvRecords(text) : text.split('\n').filter((line) => line.trim() !== '').length;
  return { blob, fileName: fileName ?? `polyflow-events-${projectId}.${format}`, events };
}

export function useExportEvents() {
  return useMutation<ExportedFile, ApiError, ExportRequest>({ mutationFn: exportEvents });
}
