/** Small SVG charts of the report pages; each has a text alternative, and every bar its own tooltip. */

/** One vertical bar per day (the report's local days), scaled to the largest value. */
export function DayBars({
  days,
  label,
  describe,
}: {
  days: { date: string; value: number | null }[];
  label: string;
  describe: (value: number | null) => string;
}) {
  const highest = Math.max(0, ...days.map((d) => d.value ?? 0));
  const max = Math.max(1, highest);
  const width = 10;
  return (
    <figure className="day-bars-figure">
      <svg
        className="day-bars"
        role="img"
        aria-label={label}
        viewBox={`0 0 ${Math.max(1, days.length * width)} 100`}
        preserveAspectRatio="none"
      >
        {days.map((d, i) => {
          const h = d.value === null ? 0 : Math.max(d.value > 0 ? 2 : 0, (d.value / max) * 100);
          return (
            <rect key={d.date} className="day-bar" x={i * width + 1} y={100 - h} width={width - 2} height={h}>
              <title>{`${d.date}: ${describe(d.value)}`}</title>
            </rect>
          );
        })}
      </svg>
      {days.length > 0 && (
        <figcaption className="day-bars-axis muted small" aria-hidden="true">
          <span>{days[0]!.date}</span>
          <span>highest: {describe(highest)}</span>
          <span>{days[days.length - 1]!.date}</span>
        </figcaption>
      )}
    </figure>
  );
}

/** Counts as horizontal bars in a table (name, count, bar), so the numbers are read as text too. */
export function CountTable({
  caption,
  heading = 'Kind',
  rows,
}: {
  caption: string;
  /** The first column's heading. */
  heading?: string;
  rows: { label: string; value: number }[];
}) {
  const max = Math.max(1, ...rows.map((r) => r.value));
  return (
    <div className="table-wrap">
      <table className="count-table">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{heading}</th>
            <th scope="col">Count</th>
            <th scope="col">
              <span className="visually-hidden">Share</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.label}>
              <th scope="row">{r.label}</th>
              <td>{r.value}</td>
              <td className="bar-cell">
                <svg className="count-bar" viewBox="0 0 100 10" preserveAspectRatio="none" aria-hidden="true">
                  <rect x={0} y={1} width={(r.value / max) * 100} height={8} />
                </svg>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
