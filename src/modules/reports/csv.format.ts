/** UTF-8 byte-order mark: spreadsheets then read non-ASCII names correctly. */
export const CSV_BOM = '\uFEFF';

export type CsvCell = string | number | boolean | null;

/** RFC 4180: fields with a comma, quote, CR or LF are quoted, quotes doubled; null is empty. */
export function csvField(v: CsvCell): string {
  if (v === null) return '';
  const s = typeof v === 'string' ? v : String(v);
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

/** One CRLF-ended record. */
export function csvLine(cells: readonly CsvCell[]): string {
  return cells.map(csvField).join(',') + '\r\n';
}

/** BOM, header, one record per row. */
export function csvDocument(header: readonly string[], rows: ReadonlyArray<readonly CsvCell[]>): string {
  return CSV_BOM + csvLine(header) + rows.map(csvLine).join('');
}
