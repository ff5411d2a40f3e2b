import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import './charts.css';
import { lonePoints, type LatencySeries } from '../lib/latency-series';

export type { LatencySeries };

const COLOURS = ['#2563eb', '#d97706', '#059669', '#db2777', '#7c3aed', '#0891b2'];
const DASHES = [[], [6, 3], [2, 2], [10, 4, 2, 4], [1, 3], [8, 8]];

/** A shaded stretch of the chart: a state of the monitor, or an open incident (drawn as a band along the top). */
export interface ChartBand {
  kind: 'down' | 'degraded' | 'maintenance' | 'paused' | 'incident';
  /** Seconds since the epoch. */
  start: number;
  end: number;
}

export interface PlotArea {
  left: number;
  width: number;
}

/** The CSS colour of each band (charts.css), read when drawing: the theme may have changed. */
const BAND_VARS: Record<ChartBand['kind'], string> = {
  down: '--down',
  degraded: '--degraded',
  maintenance: '--maintenance',
  paused: '--paused',
  incident: '--incident',
};

/**
 * Latency lines on one time axis (uPlot, canvas), over bands where the monitor was down, degraded, in maintenance or
 * paused, with open incidents as a strip along the top. Lines differ by colour and dash; the caller draws the legend
 * and gives the text alternative (the figures and periods as text beside the chart).
 */
export function LatencyChart({
  series,
  label,
  bands = [],
  range,
  height = 260,
  onPlotArea,
}: {
  series: LatencySeries[];
  label: string;
  bands?: ChartBand[];
  /** The x range in seconds (the period asked for); default: the data's. */
  range?: [number, number];
  height?: number;
  /**
   * The plot area's left edge and width in CSS pixels, from the chart's own left edge: given after each draw at a
   * new size, so that what lines up with the time axis (the state strip) follows the axes, whatever their width.
   */
  onPlotArea?: (area: PlotArea) => void;
}) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el || series.length === 0) return;
    const times = [...new Set(series.flatMap((s) => s.times))].sort((a, b) => a - b);
    const index = new Map(times.map((t, i) => [t, i]));
    const columns = series.map((s) => {
      // Times another line has and this one lacks are spanned (undefined), not gaps (null).
      const col: (number | null | undefined)[] = new Array<number | null | undefined>(times.length).fill(undefined);
      s.times.forEach((t, i) => (col[index.get(t)!] = s.values[i]));
      return col;
    });
    const styles = getComputedStyle(document.documentElement);
    const axisColour = styles.getPropertyValue('--muted').trim() || '#666';
    const shade = (u: uPlot) => {
      const { ctx } = u;
      const { left, top, width, height: h } = u.bbox;
      const css = getComputedStyle(document.documentElement);
      ctx.save();
      for (const b of bands) {
        const x0 = Math.max(left, u.valToPos(b.start, 'x', true));
        const x1 = Math.min(left + width, u.valToPos(b.end, 'x', true));
        if (x1 <= x0) continue;
        ctx.fillStyle = css.getPropertyValue(BAND_VARS[b.kind]).trim() || '#888';
        // At least 2 px: an outage of one minute on a 90-day chart still shows.
        const w = Math.max(2, x1 - x0);
        if (b.kind === 'incident') {
          ctx.globalAlpha = 0.85;
          ctx.fillRect(x0, top, w, 6 * devicePixelRatio);
        } else {
          ctx.globalAlpha = b.kind === 'down' ? 0.22 : 0.16;
          ctx.fillRect(x0, top, w, h);
        }
      }
      ctx.restore();
    };
    let last = '';
    const report = (u: uPlot) => {
      const area = u.over.getBoundingClientRect();
      const left = Math.round((area.left - el.getBoundingClientRect().left) * 10) / 10;
      const width = Math.round(area.width * 10) / 10;
      const key = `${left}:${width}`;
      if (key === last) return;
      last = key;
      onPlotArea?.({ left, width });
    };
    const plot = new uPlot(
      {
        width: el.clientWidth || 600,
        height,
        scales: { x: { time: true, ...(range && { range: () => range }) } },
        axes: [
          { stroke: axisColour, grid: { stroke: 'rgba(128,128,128,0.15)' } },
          {
            stroke: axisColour,
            grid: { stroke: 'rgba(128,128,128,0.15)' },
            values: (_u, v) => v.map((x) => `${x} ms`),
            size: 70,
          },
        ],
        hooks: {
          drawClear: [shade],
          // u.over is the plot area (uPlot sizes it after the axes): measured against the chart's box.
          ready: [(u) => report(u)],
          setSize: [(u) => report(u)],
        },
        series: [
          {},
          ...series.map((s, i) => ({
            label: s.label,
            stroke: s.colour ?? COLOURS[i % COLOURS.length],
            dash: s.dash ?? DASHES[i % DASHES.length],
            width: 1.75,
            spanGaps: false,
            // A value without neighbours makes no line: it is drawn as a dot (first checks, the current bucket).
            points: {
              show: true,
              size: 6,
              fill: s.colour ?? COLOURS[i % COLOURS.length],
              filter: lonePoints(columns[i]!),
            },
            value: (_u: uPlot, v: number | null) => (v === null || v === undefined ? '—' : `${Math.round(v)} ms`),
          })),
        ],
      },
      [times, ...columns] as uPlot.AlignedData,
      el,
    );
    const resize = new ResizeObserver(() => plot.setSize({ width: el.clientWidth, height }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [series, bands, range, height, onPlotArea]);
  return <div ref={box} className="latency-chart" role="img" aria-label={label} data-bands={bands.length} />;
}
