import { vi } from 'vitest';

export interface CsvDownload {
  fileName: string;
  /** The file's records, header first, as RFC 4180 reads them. */
  records: string[][];
}

/**
 * Catches the files "Download CSV" hands the browser (a blob URL clicked through an `<a download>`):
 * `take()` answers the files saved since the last call, their text parsed back into records.
 */
export function catchCsvDownloads(): { take(): Promise<CsvDownload[]> } {
  const blobs = new Map<string, Blob>();
  const saved: Array<{ fileName: string; blob: Blob }> = [];
  vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
    const url = `blob:test/${blobs.size}`;
    blobs.set(url, blob as Blob);
    return url;
  });
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    const blob = blobs.get(this.href);
    if (blob) saved.push({ fileName: this.download, blob });
  });
  return {
    async take() {
      const files = saved.splice(0);
      return Promise.all(
        files.map(async ({ fileName, blob }) => ({ fileName, records: parseCsv(await blob.text()) })),
      );
    },
  };
}

/** RFC 4180 written out here, not shared with lib/csv.ts: quoted fields, "" for a quote, CRLF. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let isQuoted = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index] as string;
    if (isQuoted) {
      if (char === '"' && text[index + 1] === '"') {
        field += '"';
        index++;
      } else if (char === '"') isQuoted = false;
      else field += char;
    } else if (char === '"') isQuoted = true;
    else if (char === ',') {
      record.push(field);
      field = '';
    } else if (char === '\r' && text[index + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      index++;
    } else field += char;
  }
  if (field !== '' || record.length > 0) throw new Error('CSV does not end with CRLF');
  return records;
}
