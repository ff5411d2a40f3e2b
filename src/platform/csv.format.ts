/** UTF-8 byte-order mark: spreadsheets then read non-ASCII names correctly. */
export const CSV_BOM = '\uFEFF';

export type CsvCell = string | number | boolean | null;

/**
 * Text a spreadsheet would read as a formula (or, after a tab or CR, as the start of one): OWASP's list for CSV
 * injection, `=`, `+`, `-`, `@`, tab (0x09) and carriage return (0x0D).
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One field. RFC 4180: a field with a comma, quote, CR or LF is quoted, quotes doubled; null is empty.
 * Text that starts like a formula is neutralised as OWASP recommends (a leading `'`, the field quoted), so a monitor
 * named `=HYPERLINK(…)` shows as that text in a spreadsheet instead of running. Only strings: numbers and booleans
 * the product computes (`-5`, `-12.5`) stay numbers.
 */
export function csvField(v: CsvCell): string {
  if (v === null) return '';
  if (typeof v !== 'string') return String(v);
  if (FORMULA_START.test(v)) return `"'${v.replaceAll('"', '""')}"`;
  return /[",\r\n]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v;
}

/** One CRLF-ended record. */
export function csvLine(cells: readonly CsvCell[]): string {
  return cells.map(csvField).join(',') + '\r\n';
}

/** BOM, header, one record per row. Every CSV of the product (reports, exports, scheduled attachments, the audit log) is written with this file's functions. */
export function csvDocument(header: readonly string[], rows: ReadonlyArray<readonly CsvCell[]>): string {
  return CSV_BOM + csvLine(header) + rows.map(csvLine).join('');
}
