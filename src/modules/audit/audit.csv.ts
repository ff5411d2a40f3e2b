/** UTF-8 byte-order mark: spreadsheets then read non-ASCII names correctly. */
export const CSV_BOM = '\uFEFF';

// A cell a spreadsheet would run as a formula (=, +, -, @) or that starts with a tab or CR (which some
// spreadsheets strip before looking for one): its text is user-controlled (names, targets, changed values).
const FORMULA_START = /^[=+\-@\t\r]/;

/** RFC 4180 field; text that could start a formula is prefixed with `'` so it stays text. */
export function auditCsvField(value: string | null): string {
  if (value === null) return '';
  const s = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

export function auditCsvLine(cells: ReadonlyArray<string | null>): string {
  return cells.map(auditCsvField).join(',') + '\r\n';
}
