/** Small charts drawn as plain SVG (no chart library on the list pages). Each carries a text alternative. */

export interface DayUptime {
  day: string;
  uptime: number | null;
}

function barClass(uptime: number | null): string {
  if (uptime === null) return 'bar-none';
  if (uptime >= 99.9) return 'bar-up';
  if (uptime >= 95) return 'bar-degraded';
  return 'bar-down';
}

/**
 * One bar per day (oldest first), drawn as one path per kind of day (a few nodes, not 90: the list mounts rows
 * while scrolling); the label sums it up for screen readers and as the tooltip.
 */
export function UptimeBar({ days, label }: { days: DayUptime[]; label: string }) {
  const width = 3;
  const gap = 1;
  const paths = new Map<string, string>();
  days.forEach((d, i) => {
    const kind = barClass(d.uptime);
    paths.set(kind, `${paths.get(kind) ?? ''}M${i * (width + gap)} 0h${width}v20h-${width}z`);
  });
  return (
    <svg
      className="uptime-bar"
      role="img"
      aria-label={label}
      viewBox={`0 0 ${Math.max(1, days.length * (width + gap))} 20`}
      preserveAspectRatio="none"
    >
      <title>{label}</title>
      {[...paths].map(([kind, d]) => (
        <path key={kind} className={kind} d={d} />
      ))}
    </svg>
  );
}

/** A line of values (nulls are gaps); the label says what it shows. */
export function Sparkline({ values, label }: { values: (number | null)[]; label: string }) {
  const present = values.filter((v): v is number => v !== null);
  const max = present.length ? Math.max(...present) : 1;
  const min = present.length ? Math.min(...present) : 0;
  const span = max - min || 1;
  const step = values.length > 1 ? 100 / (values.length - 1) : 100;
  let path = '';
  let pen = false;
  // A lone value between gaps is drawn as a short dash, so that one hour of data still shows.
  const dash = step > 0 ? Math.min(step, 4) / 2 : 2;
  values.forEach((v, i) => {
    if (v === null) {
      pen = false;
      return;
    }
    const x = (i * step).toFixed(1);
    const y = (22 - ((v - min) / span) * 20).toFixed(1);
    const alone = !pen && (i + 1 >= values.length || values[i + 1] === null);
    path += alone
      ? `M${(Number(x) - dash).toFixed(1)} ${y}L${(Number(x) + dash).toFixed(1)} ${y}`
      : `${pen ? 'L' : 'M'}${x} ${y}`;
    pen = !alone;
  });
  return (
    <svg className="sparkline" role="img" aria-label={label} viewBox="0 0 100 24" preserveAspectRatio="none">
      {path && <path d={path} vectorEffect="non-scaling-stroke" />}
    </svg>
  );
}
