/**
 * The overview's two bar charts (uptime per bucket across monitors, incidents opened per bucket), drawn as HTML
 * bars: crisp at any width without a chart library, coloured from the state tokens. Each chart is an image with a
 * summary for screen readers, and its figures are one click away as a table (the reference's "table toggle").
 */
import { useId } from 'react';
import type { TrendBucket, TrendPeriod } from '../api/overview';
import { percent } from '../lib/format';

const HOUR_LABEL = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });
const DAY_LABEL = new Intl.DateTimeFormat(undefined, { weekday: 'short', day: 'numeric', timeZone: 'UTC' });

function bucketLabel(period: TrendPeriod, start: number): string {
  return period === '24h' ? HOUR_LABEL.format(start) : DAY_LABEL.format(start);
}

/** The uptime that colours a bar: full, slightly short (degraded tone), or an outage's worth (down tone). */
function uptimeTone(uptime: number | null): string {
  if (uptime === null) return 'none';
  if (uptime >= 99.9) return 'up';
  if (uptime >= 99) return 'degraded';
  return 'down';
}

function Axis({ period, buckets }: { period: TrendPeriod; buckets: TrendBucket[] }) {
  const first = buckets[0];
  const middle = buckets[Math.floor(buckets.length / 2)];
  return (
    <div className="bars-axis" aria-hidden="true">
      <span>{first && bucketLabel(period, first.start)}</span>
      <span>{middle && bucketLabel(period, middle.start)}</span>
      <span>{period === '24h' ? 'now' : 'today'}</span>
    </div>
  );
}

function FiguresTable(props: {
  caption: string;
  period: TrendPeriod;
  buckets: TrendBucket[];
  column: string;
  value: (b: TrendBucket) => string;
}) {
  return (
    <details className="chart-table">
      <summary>Show as table</summary>
      <div className="table-wrap">
        <table>
          <caption className="visually-hidden">{props.caption}</caption>
          <thead>
            <tr>
              <th scope="col">{props.period === '24h' ? 'Hour' : 'Day (UTC)'}</th>
              <th scope="col">{props.column}</th>
            </tr>
          </thead>
          <tbody>
            {props.buckets.map((b) => (
              <tr key={b.start}>
                <td>{bucketLabel(props.period, b.start)}</td>
                <td>{props.value(b)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}

/** Uptime of all monitors per hour (24 h) or per day (7 d); the scale starts at 90 % unless a bucket fell below. */
export function UptimeBars({ period, buckets }: { period: TrendPeriod; buckets: TrendBucket[] }) {
  const id = useId();
  const checks = buckets.reduce((n, b) => n + b.checks, 0);
  const failures = buckets.reduce((n, b) => n + b.failures, 0);
  const overall = checks > 0 ? ((checks - failures) / checks) * 100 : null;
  const measured = buckets.filter((b) => b.uptime !== null);
  const lowest = measured.reduce<TrendBucket | null>((low, b) => (!low || b.uptime! < low.uptime! ? b : low), null);
  const floor = lowest && lowest.uptime! < 90 ? 0 : 90;
  const span = period === '24h' ? 'last 24 hours, per hour' : 'last 7 days, per day';
  const summary =
    overall === null
      ? `Uptime, ${span}: no checks yet.`
      : `Uptime of all monitors, ${span}: ${percent(overall)} overall` +
        (lowest && lowest.uptime! < 100
          ? `, lowest ${percent(lowest.uptime)} at ${bucketLabel(period, lowest.start)}.`
          : ', every bucket 100%.');
  return (
    <figure className="trend-chart" data-chart="uptime">
      <figcaption id={id}>
        <span className="trend-title">Uptime</span>
        <span className="trend-figure">{overall === null ? '—' : percent(overall, 3)}</span>
      </figcaption>
      <div className="bars" role="img" aria-label={summary} data-floor={floor}>
        {buckets.map((b) => {
          const height = b.uptime === null ? 4 : Math.max(4, ((b.uptime - floor) / (100 - floor)) * 100);
          return (
            <span
              key={b.start}
              className={`bar bar-tone-${uptimeTone(b.uptime)}`}
              style={{ height: `${height}%` }}
              title={`${bucketLabel(period, b.start)}: ${b.uptime === null ? 'no checks' : percent(b.uptime)}`}
            />
          );
        })}
      </div>
      <Axis period={period} buckets={buckets} />
      <p className="chart-note">
        Bars from {floor}% to 100%; <span className="key key-up">■ ≥ 99.9%</span>{' '}
        <span className="key key-degraded">■ ≥ 99%</span> <span className="key key-down">■ lower</span>
      </p>
      <FiguresTable
        caption={summary}
        period={period}
        buckets={buckets}
        column="Uptime"
        value={(b) => (b.uptime === null ? 'no checks' : `${percent(b.uptime)} (${b.failures} of ${b.checks} failed)`)}
      />
    </figure>
  );
}

/** Incidents opened per hour (24 h) or per day (7 d). */
export function IncidentBars(props: { period: TrendPeriod; buckets: TrendBucket[] }) {
  const { period, buckets } = props;
  const total = buckets.reduce((n, b) => n + b.opened, 0);
  const max = Math.max(1, ...buckets.map((b) => b.opened));
  const busiest = buckets.reduce<TrendBucket | null>((top, b) => (!top || b.opened > top.opened ? b : top), null);
  const span = period === '24h' ? 'last 24 hours, per hour' : 'last 7 days, per day';
  const summary =
    total === 0
      ? `Incidents opened, ${span}: none.`
      : `Incidents opened, ${span}: ${total} in all, most (${busiest!.opened}) at ${bucketLabel(period, busiest!.start)}.`;
  return (
    <figure className="trend-chart" data-chart="incidents">
      <figcaption>
        <span className="trend-title">Incidents opened</span>
        <span className="trend-figure">{total}</span>
      </figcaption>
      <div className="bars" role="img" aria-label={summary}>
        {buckets.map((b) => (
          <span
            key={b.start}
            className={`bar ${b.opened > 0 ? 'bar-tone-down' : 'bar-tone-none'}`}
            style={{ height: `${b.opened > 0 ? Math.max(8, (b.opened / max) * 100) : 4}%` }}
            title={`${bucketLabel(period, b.start)}: ${b.opened} opened`}
          />
        ))}
      </div>
      <Axis period={period} buckets={buckets} />
      <p className="chart-note">Highest bar: {max === 1 && total === 0 ? 0 : max} opened.</p>
      <FiguresTable
        caption={summary}
        period={period}
        buckets={buckets}
        column="Opened"
        value={(b) => String(b.opened)}
      />
    </figure>
  );
}
