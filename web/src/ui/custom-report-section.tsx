import { kindLabel } from '../lib/custom-report.kinds';
import { at, count, millis, pct, rate, span, trend } from '../lib/report-format';

/** The list each kind's JSON report has one row of per monitor, target, incident, event or finding. */
const ROWS_OF: Record<string, string> = {
  availability: 'monitors',
  performance: 'monitors',
  sla: 'targets',
  incidents: 'incidents',
  intelligence: 'events',
  monitor_health: 'monitors',
};

/** The columns the page shows per kind (paths into a row); the downloads have every column. */
const COLUMNS_OF: Record<string, string[]> = {
  availability: ['name', 'uptime_percent', 'downtime_seconds', 'incident_count', 'longest_incident_seconds'],
  performance: ['name', 'p50_ms', 'p95_ms', 'p99_ms', 'trend_percent', 'checks'],
  sla: [
    'name',
    'target_percent',
    'period',
    'current.achieved_percent',
    'current.status',
    'current.error_budget_used_percent',
    'current.error_budget_remaining_seconds',
    'current.burn_rate',
  ],
  incidents: ['number', 'title', 'status', 'opened_at', 'duration_seconds', 'time_to_acknowledge_seconds'],
  intelligence: ['started_at', 'monitor_name', 'kind', 'severity', 'summary'],
  monitor_health: ['name', 'findings'],
};

type Scalar = string | number | boolean | null;
const isScalar = (v: unknown): v is Scalar =>
  v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';

function words(path: string): string {
  const key = path.split('.').pop()!;
  const text = key.replace(/_(percent|seconds|ms)$/, '').replace(/_/g, ' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function valueAt(row: Record<string, unknown>, path: string): unknown {
  let v: unknown = row;
  for (const part of path.split('.'))
    v = typeof v === 'object' && v !== null ? (v as Record<string, unknown>)[part] : undefined;
  return v;
}

const text = (v: unknown): string => (isScalar(v) && v !== null ? String(v) : '');

function finding(f: unknown): string {
  if (typeof f !== 'object' || f === null) return text(f);
  const o = f as Record<string, unknown>;
  return o.reason === undefined ? text(o.kind) : `${text(o.kind)}: ${text(o.reason)}`;
}

/** A value of the JSON report written for people, by what its key says it is; the figures are the API's own. */
export function figure(path: string, value: unknown, timeZone: string): string {
  const key = path.split('.').pop()!;
  if (value === null || value === undefined) return '—';
  // monitor_health findings: their kinds and reasons.
  if (Array.isArray(value)) return value.map(finding).join('; ') || 'none';
  if (!isScalar(value)) return '—';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'string') return key.endsWith('_at') ? at(value, timeZone) : value;
  if (key === 'trend_percent') return trend(value);
  if (key === 'burn_rate') return rate(value);
  if (key.endsWith('_percent')) return pct(value);
  if (key.endsWith('_seconds')) return span(value);
  if (key.endsWith('_ms')) return millis(value);
  return count(value);
}

/** The summary's plain figures, nested counts one level down ("Findings flapping"). */
function summaryFigures(summary: Record<string, unknown>): [string, unknown][] {
  const out: [string, unknown][] = [];
  for (const [k, v] of Object.entries(summary)) {
    if (isScalar(v)) out.push([k, v]);
    else if (typeof v === 'object' && v !== null && !Array.isArray(v))
      for (const [k2, v2] of Object.entries(v)) if (isScalar(v2)) out.push([`${k}.${k2}`, v2]);
  }
  return out;
}

const label = (path: string) => {
  const parts = path.split('.');
  return parts.length > 1 && parts[0] !== 'current'
    ? `${words(parts[0]!)} ${parts.slice(1).join(' ').replace(/_/g, ' ')}`
    : words(path);
};

/**
 * One section of a rendered custom report: its key figures (the report's `summary`) and a table of its rows (each
 * kind's list), both drawn from the section's JSON as the API sent it. The downloads have every column; the page
 * shows the few chosen per kind (COLUMNS_OF).
 */
export function CustomReportSection(props: {
  index: number;
  section: { title: string; kind: string; report: Record<string, unknown> | null; notice: string | null };
}) {
  const { section, index } = props;
  const headingId = `section-${index}`;
  const report = section.report;
  const timeZone =
    report && typeof report.period === 'object' && report.period !== null
      ? text((report.period as Record<string, unknown>).timezone) || 'UTC'
      : 'UTC';
  const summary =
    report && typeof report.summary === 'object' && report.summary !== null
      ? summaryFigures(report.summary as Record<string, unknown>)
      : [];
  const rowsKey = ROWS_OF[section.kind];
  const rawRows = report && rowsKey && Array.isArray(report[rowsKey]) ? (report[rowsKey] as unknown[]) : [];
  const rows = rawRows.filter((r): r is Record<string, unknown> => typeof r === 'object' && r !== null);
  const columns = COLUMNS_OF[section.kind] ?? ['name'];
  return (
    <section className="card report-section" aria-labelledby={headingId} data-kind={section.kind}>
      <h2 id={headingId}>
        {section.title} <span className="muted small">· {kindLabel(section.kind)}</span>
      </h2>
      {section.notice && <p className="notice">{section.notice}</p>}
      {summary.length > 0 && (
        <dl className="facts">
          {summary.map(([k, v]) => (
            <div key={k}>
              <dt>{label(k)}</dt>
              <dd data-key={k}>{figure(k, v, timeZone)}</dd>
            </div>
          ))}
        </dl>
      )}
      {report && rows.length === 0 && <p className="muted">No {rowsKey ?? 'rows'} in this period.</p>}
      {rows.length > 0 && (
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">
              {section.title}: {rowsKey}
            </caption>
            <thead>
              <tr>
                {columns.map((c) => (
                  <th scope="col" key={c}>
                    {label(c)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.slice(0, 200).map((row, i) => (
                <tr key={i}>
                  {columns.map((c) => (
                    <td key={c}>{figure(c, valueAt(row, c), timeZone)}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
          {rows.length > 200 && (
            <p className="muted small">The first 200 of {rows.length} rows; the downloads have all.</p>
          )}
        </div>
      )}
    </section>
  );
}
