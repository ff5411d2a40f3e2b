import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { lonePoints, type LatencySeries } from '../lib/latency-series';

export type { LatencySeries };

const COLOURS = ['#2563eb', '#d97706', '#059669', '#db2777', '#7c3aed', '#0891b2'];
const DASHES = [[], [6, 3], [2, 2], [10, 4, 2, 4], [1, 3], [8, 8]];

/**
 * p95 latency per region on one time axis (uPlot, canvas). Regions differ by colour and dash, and the legend
 * names them; the figures are also in the summary above the chart for screen readers.
 */
export function LatencyChart({ series, label }: { series: LatencySeries[]; label: string }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el || series.length === 0) return;
    const times = [...new Set(series.flatMap((s) => s.times))].sort((a, b) => a - b);
    const index = new Map(times.map((t, i) => [t, i]));
    const columns = series.map((s) => {
      const col: (number | null)[] = new Array<number | null>(times.length).fill(null);
      s.times.forEach((t, i) => (col[index.get(t)!] = s.values[i] ?? null));
      return col;
    });
    const styles = getComputedStyle(document.documentElement);
    const axisColour = styles.getPropertyValue('--muted').trim() || '#666';
    const plot = new uPlot(
      {
        width: el.clientWidth || 600,
        height: 260,
        scales: { x: { time: true } },
        axes: [
          { stroke: axisColour, grid: { stroke: 'rgba(128,128,128,0.15)' } },
          {
            stroke: axisColour,
            grid: { stroke: 'rgba(128,128,128,0.15)' },
            values: (_u, v) => v.map((x) => `${x} ms`),
            size: 70,
          },
        ],
        series: [
          {},
          ...series.map((s, i) => ({
            label: s.label,
            stroke: COLOURS[i % COLOURS.length],
            dash: DASHES[i % DASHES.length],
            width: 1.5,
            spanGaps: false,
            // A value without neighbours makes no line: it is drawn as a dot (first checks, the current bucket).
            points: { show: true, size: 6, fill: COLOURS[i % COLOURS.length], filter: lonePoints(columns[i]!) },
            value: (_u: uPlot, v: number | null) => (v === null ? '—' : `${Math.round(v)} ms`),
          })),
        ],
      },
      [times, ...columns] as uPlot.AlignedData,
      el,
    );
    const resize = new ResizeObserver(() => plot.setSize({ width: el.clientWidth, height: 260 }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [series]);
  return <div ref={box} className="latency-chart" role="img" aria-label={label} />;
}
