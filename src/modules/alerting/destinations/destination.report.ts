import type { AlertEvent, MailAttachment } from './destination.contract.ts';

/** One stored file of a scheduled report run, as the `scheduled_report` event carries it in `data.files`. */
export interface ReportFileRef {
  id: string;
  url: string;
  filename: string;
  content_type: string;
  size_bytes: number;
}

/** A PDF larger than this is linked instead of attached (mail servers commonly refuse messages over 10–25 MB). */
export const MAX_ATTACHED_PDF_BYTES = 10 * 1024 * 1024;

const LABELS = { pdf: 'PDF', csv: 'CSV', json: 'JSON' } as const;

function fileRef(value: unknown): ReportFileRef | null {
  if (value === null || typeof value !== 'object') return null;
  const v = value as Record<string, unknown>;
  if (typeof v.id !== 'string' || typeof v.url !== 'string' || typeof v.filename !== 'string') return null;
  return {
    id: v.id,
    url: v.url,
    filename: v.filename,
    content_type: typeof v.content_type === 'string' ? v.content_type : 'application/octet-stream',
    size_bytes: typeof v.size_bytes === 'number' ? v.size_bytes : 0,
  };
}

export function reportFilesOf(event: AlertEvent): Partial<Record<keyof typeof LABELS, ReportFileRef>> {
  const files = event.data.files;
  if (files === null || typeof files !== 'object') return {};
  const f = files as Record<string, unknown>;
  const out: Partial<Record<keyof typeof LABELS, ReportFileRef>> = {};
  for (const kind of ['pdf', 'csv', 'json'] as const) {
    const ref = fileRef(f[kind]);
    if (ref) out[kind] = ref;
  }
  return out;
}

function localDate(ms: number, timeZone: string): string {
  try {
    return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(ms);
  } catch {
    return new Date(ms).toISOString().slice(0, 10);
  }
}

/** "2026-11-01 – 2026-11-30 (Europe/Berlin)": the local dates of a half-open period, last day inclusive. */
export function periodText(period: unknown): string | null {
  if (typeof period === 'string') return period;
  if (period === null || typeof period !== 'object') return null;
  const p = period as Record<string, unknown>;
  const from = typeof p.from === 'string' ? Date.parse(p.from) : NaN;
  const to = typeof p.to === 'string' ? Date.parse(p.to) : NaN;
  const zone = typeof p.timezone === 'string' ? p.timezone : 'UTC';
  if (!Number.isFinite(from) || !Number.isFinite(to)) return null;
  const first = localDate(from, zone);
  const last = localDate(to - 1, zone);
  return `${first === last ? first : `${first} – ${last}`} (${zone})`;
}

function figure(value: unknown): string | null {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'string' && value !== '') return value;
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  return null;
}

/** The summary's figures as "key: value" lines (nested objects such as by_source flattened one level). */
export function summaryLines(summary: unknown): string[] {
  if (typeof summary === 'string') return summary === '' ? [] : [summary];
  if (summary === null || typeof summary !== 'object') return [];
  const out: string[] = [];
  for (const [key, value] of Object.entries(summary as Record<string, unknown>)) {
    const label = key.replace(/_/g, ' ');
    const plain = figure(value);
    if (plain !== null) out.push(`${label}: ${plain}`);
    else if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      const parts = Object.entries(value as Record<string, unknown>)
        .map(([k, v]) => (figure(v) === null ? null : `${k} ${figure(v)}`))
        .filter((p): p is string => p !== null);
      if (parts.length > 0) out.push(`${label}: ${parts.slice(0, 8).join(', ')}`);
    } else if (value === null) out.push(`${label}: –`);
  }
  return out.slice(0, 12);
}

/** The body lines of a `scheduled_report` message: period, summary figures, then a link to each file. */
export function scheduledReportLines(event: AlertEvent): string[] {
  const d = event.data;
  const lines: string[] = [];
  const period = periodText(d.period);
  if (period) lines.push(`Period: ${period}`);
  lines.push(...summaryLines(d.summary));
  const files = reportFilesOf(event);
  for (const kind of ['pdf', 'csv', 'json'] as const) {
    const f = files[kind];
    if (f) lines.push(`${LABELS[kind]}: ${f.url}`);
  }
  if (typeof d.report_url === 'string' && d.report_url !== '') lines.push(`Report: ${d.report_url}`);
  return lines;
}

/** What a report mail attaches: the CSV, and the PDF unless it is over MAX_ATTACHED_PDF_BYTES (then only linked). */
export function reportAttachments(event: AlertEvent): { attachments: MailAttachment[]; linkedOnly: ReportFileRef[] } {
  const files = reportFilesOf(event);
  const attachments: MailAttachment[] = [];
  const linkedOnly: ReportFileRef[] = [];
  for (const kind of ['pdf', 'csv'] as const) {
    const f = files[kind];
    if (!f) continue;
    if (kind === 'pdf' && f.size_bytes > MAX_ATTACHED_PDF_BYTES) linkedOnly.push(f);
    else attachments.push({ filename: f.filename, contentType: f.content_type, fileId: f.id });
  }
  return { attachments, linkedOnly };
}
