import './charts.css';
import { Link } from 'react-router';
import { dateTime, duration } from '../lib/format';
import type { ChartBucket } from '../lib/latency-buckets';

export type StateKind = 'down' | 'degraded' | 'maintenance' | 'paused';

export interface StatePeriod {
  state: StateKind;
  start: string;
  end: string;
}

export interface PeriodIncident {
  id: string;
  number: number;
  title: string;
  status: string;
  down_since: string;
  resolved_at: string | null;
}

export const STATE_LABELS: Record<StateKind, string> = {
  down: 'Down',
  degraded: 'Degraded',
  maintenance: 'Maintenance',
  paused: 'Paused',
};

/**
 * The period as one bar, in the chart's state colours: grey without checks, green with checks, then the down,
 * degraded, maintenance and paused periods over it, and each incident outlined. Every part has its own tooltip.
 */
export function MonitorStateStrip({
  from,
  to,
  widthMs,
  buckets,
  periods,
  incidents,
  plotArea,
}: {
  /** Where the chart above plots time (ui/latency-chart.tsx): the strip spans the same pixels. */
  plotArea?: { left: number; width: number } | null;
  from: number;
  to: number;
  widthMs: number;
  buckets: readonly ChartBucket[];
  periods: readonly StatePeriod[];
  incidents: readonly PeriodIncident[];
}) {
  const span = Math.max(1, to - from);
  const x = (t: number) => Math.min(1000, Math.max(0, ((t - from) / span) * 1000));
  // Runs of buckets with checks make the green base (one rect per run, not per bucket).
  const runs: Array<[number, number]> = [];
  for (const b of buckets) {
    if (b.checks === 0) continue;
    const last = runs[runs.length - 1];
    if (last && last[1] === b.start) last[1] = b.start + widthMs;
    else runs.push([b.start, b.start + widthMs]);
  }
  const minWidth = 2;
  const frame = plotArea ? { marginLeft: plotArea.left, width: plotArea.width } : undefined;
  return (
    <div className="state-strip-frame" style={frame} data-testid="state-strip-frame">
      <svg
        className="state-strip"
        viewBox="0 0 1000 28"
        preserveAspectRatio="none"
        role="img"
        aria-label={stripSummary(periods, incidents)}
        data-testid="state-strip"
      >
        <rect className="none" x={0} y={4} width={1000} height={20} />
        {runs.map(([s, e]) => (
          <rect key={`up-${s}`} className="up" x={x(s)} y={4} width={Math.max(minWidth, x(e) - x(s))} height={20} />
        ))}
        {periods.map((p) => {
          const s = Date.parse(p.start);
          const e = Date.parse(p.end);
          return (
            <rect
              key={`${p.state}-${p.start}`}
              className={p.state}
              data-state={p.state}
              x={x(s)}
              y={4}
              width={Math.max(minWidth, x(e) - x(s))}
              height={20}
            >
              <title>{`${STATE_LABELS[p.state]}: ${dateTime(p.start)} – ${dateTime(p.end)} (${duration((e - s) / 1000)})`}</title>
            </rect>
          );
        })}
        {incidents.map((i) => {
          const s = Math.max(from, Date.parse(i.down_since));
          const e = i.resolved_at ? Date.parse(i.resolved_at) : to;
          return (
            <rect
              key={i.id}
              className="incident"
              data-incident={i.number}
              x={x(s)}
              y={1}
              width={Math.max(minWidth, x(e) - x(s))}
              height={26}
            >
              <title>{`Incident #${i.number} ${i.title}: ${dateTime(i.down_since)} – ${i.resolved_at ? dateTime(i.resolved_at) : 'open'}`}</title>
            </rect>
          );
        })}
      </svg>
      <div className="state-strip-axis" aria-hidden="true">
        <span>{dateTime(from)}</span>
        <span>{dateTime(to)}</span>
      </div>
    </div>
  );
}

/** What the strip shows, in words (its label for screen readers). */
export function stripSummary(periods: readonly StatePeriod[], incidents: readonly PeriodIncident[]): string {
  const totals = new Map<StateKind, number>();
  for (const p of periods) totals.set(p.state, (totals.get(p.state) ?? 0) + Date.parse(p.end) - Date.parse(p.start));
  const parts = [...totals].map(([s, ms]) => `${STATE_LABELS[s].toLowerCase()} ${duration(ms / 1000)}`);
  const inc = incidents.length === 1 ? '1 incident' : `${incidents.length} incidents`;
  return parts.length === 0 ? `No downtime, degradation or maintenance; ${inc}` : `${parts.join(', ')}; ${inc}`;
}

/** The lines and the shading, named (colour is never the only cue: each entry has its word). */
export function ChartLegend({ lines }: { lines: ReadonlyArray<{ label: string; colour: string; dashed: boolean }> }) {
  return (
    <ul className="chart-legend" data-testid="chart-legend">
      {lines.map((l) => (
        <li key={l.label}>
          <span className={`swatch line${l.dashed ? ' dashed' : ''}`} style={{ color: l.colour }} aria-hidden="true" />
          {l.label}
        </li>
      ))}
      {(Object.keys(STATE_LABELS) as StateKind[]).map((s) => (
        <li key={s}>
          <span className={`swatch ${s}`} aria-hidden="true" />
          {STATE_LABELS[s]}
        </li>
      ))}
      <li>
        <span className="swatch incident" aria-hidden="true" />
        Incident
      </li>
    </ul>
  );
}

/** The shaded periods and incidents as a table (collapsed): the chart's data for screen readers and for copying. */
export function PeriodsTable({
  periods,
  incidents,
}: {
  periods: readonly StatePeriod[];
  incidents: readonly PeriodIncident[];
}) {
  const rows = [
    ...periods.map((p) => ({
      key: `${p.state}-${p.start}`,
      what: STATE_LABELS[p.state],
      start: p.start,
      end: p.end as string | null,
      link: null as string | null,
    })),
    ...incidents.map((i) => ({
      key: i.id,
      what: `Incident #${i.number} ${i.title}`,
      start: i.down_since,
      end: i.resolved_at,
      link: `/incidents/${i.id}`,
    })),
  ].sort((a, b) => Date.parse(a.start) - Date.parse(b.start));
  return (
    <details className="chart-data">
      <summary>Periods as a table ({rows.length === 1 ? '1 row' : `${rows.length} rows`})</summary>
      {rows.length === 0 ? (
        <p className="muted small">No downtime, degradation, maintenance, pause or incident in this period.</p>
      ) : (
        <div className="table-wrap" tabIndex={0} role="region" aria-label="Periods">
          <table data-testid="periods-table">
            <thead>
              <tr>
                <th scope="col">What</th>
                <th scope="col">From</th>
                <th scope="col">To</th>
                <th scope="col">Duration</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.key}>
                  <th scope="row">{r.link ? <Link to={r.link}>{r.what}</Link> : r.what}</th>
                  <td>{dateTime(r.start)}</td>
                  <td>{r.end ? dateTime(r.end) : 'open'}</td>
                  <td>{duration(((r.end ? Date.parse(r.end) : Date.now()) - Date.parse(r.start)) / 1000)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </details>
  );
}
