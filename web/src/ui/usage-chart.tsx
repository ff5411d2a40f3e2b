import './charts.css';
import './usage-chart.css';
import { dateTime } from '../lib/format';

export const USAGE_CLASSES = ['read', 'write', 'delete'] as const;
export type UsageClass = (typeof USAGE_CLASSES)[number];

export interface UsageRow {
  start: string;
  read: number;
  write: number;
  delete: number;
}

/** The smallest of 1, 2, 5 × 10^k at or above `max` (a round top for the axis). */
export function niceCeiling(max: number): number {
  if (max <= 1) return 1;
  const power = 10 ** Math.floor(Math.log10(max));
  for (const m of [1, 2, 5, 10]) if (m * power >= max) return m * power;
  return 10 * power;
}

/**
 * Requests per bucket, stacked by class, with a y axis in requests (round ticks), the bucket times on the x axis, a
 * tooltip per bar and the figures as a table (collapsed) for screen readers and copying.
 */
const STEP_MS: Record<string, number> = { minute: 60_000, hour: 3_600_000, day: 86_400_000 };

export function UsageChart({
  rows,
  resolution,
  from,
  to,
}: {
  rows: readonly UsageRow[];
  resolution: string;
  /** The usage period: the x axis (bars stand at their time; buckets without requests are not listed). */
  from: string;
  to: string;
}) {
  const totals = rows.map((r) => r.read + r.write + r.delete);
  const top = niceCeiling(Math.max(0, ...totals));
  const ticks = [0, top / 4, top / 2, (3 * top) / 4, top].filter((t) => Number.isInteger(t) || top < 4);
  const width = 1000;
  const t0 = Date.parse(from);
  const span = Math.max(1, Date.parse(to) - t0);
  const step = STEP_MS[resolution] ?? 3_600_000;
  // A bar is its bucket's width, less a gap, and never thinner than 6 units of 1,000 (a minute in a day is 0.7),
  // and stays inside the plot (the current bucket starts at its right edge).
  const barWidth = Math.max(6, (step / span) * width * 0.8);
  const x = (iso: string) => Math.min(width - barWidth, Math.max(0, ((Date.parse(iso) - t0) / span) * width));
  const middle = new Date(t0 + span / 2).toISOString();
  return (
    <figure className="usage-figure" data-testid="usage-chart">
      <figcaption className="usage-title">Requests per {resolution}, by class</figcaption>
      <div className="usage-plot">
        <div className="usage-y" aria-hidden="true">
          <span className="usage-y-title">requests</span>
          {ticks.map((t) => (
            <span key={t} className="usage-tick" style={{ bottom: `${(t / top) * 100}%` }}>
              {t.toLocaleString('en-US')}
            </span>
          ))}
        </div>
        <svg
          className="usage-chart"
          role="img"
          aria-label={`Requests per ${resolution} by class, ${rows.length} ${resolution}s, at most ${Math.max(0, ...totals)} in one; the figures are in the table below`}
          viewBox={`0 0 ${width} 100`}
          preserveAspectRatio="none"
        >
          {ticks.map((t) => (
            <line
              key={t}
              className="usage-grid"
              x1={0}
              x2={width}
              y1={100 - (t / top) * 100}
              y2={100 - (t / top) * 100}
              vectorEffect="non-scaling-stroke"
            />
          ))}
          {rows.map((r) => {
            let y = 100;
            const title = `${dateTime(r.start)}: ${r.read} read, ${r.write} write, ${r.delete} delete`;
            return (
              <g key={r.start}>
                <title>{title}</title>
                {USAGE_CLASSES.map((c) => {
                  const h = (r[c] / top) * 100;
                  y -= h;
                  return <rect key={c} className={`usage-${c}`} x={x(r.start)} y={y} width={barWidth} height={h} />;
                })}
              </g>
            );
          })}
        </svg>
      </div>
      <div className="usage-x" aria-hidden="true">
        <span>{dateTime(from)}</span>
        <span>{dateTime(middle)}</span>
        <span>{dateTime(to)}</span>
      </div>
      <ul className="chart-legend usage-legend">
        {USAGE_CLASSES.map((c) => (
          <li key={c}>
            <span className={`swatch usage-${c}-key`} aria-hidden="true" />
            {c}
          </li>
        ))}
      </ul>
      <details className="chart-data">
        <summary>Usage as a table</summary>
        <div className="table-wrap" tabIndex={0} role="region" aria-label="Usage per bucket">
          <table data-testid="usage-table">
            <thead>
              <tr>
                <th scope="col">{resolution === 'day' ? 'Day' : 'From'}</th>
                {USAGE_CLASSES.map((c) => (
                  <th key={c} scope="col">
                    {c}
                  </th>
                ))}
                <th scope="col">total</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r, i) => (
                <tr key={r.start}>
                  <th scope="row">{dateTime(r.start)}</th>
                  {USAGE_CLASSES.map((c) => (
                    <td key={c}>{r[c]}</td>
                  ))}
                  <td>{totals[i]}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
