import { COLOURS, type Box, type ReportPdf } from './report-pdf.document.ts';

/**
 * Vector charts drawn with pdfkit paths. Each reads in greyscale: bars are one dark tone, lines differ by dash
 * pattern and are named in a legend, days without data are marked rather than drawn as zero.
 */

export interface Axis {
  min: number;
  max: number;
  ticks: number[];
}

/** Round tick values covering [min, max] (about `count` of them). */
export function niceAxis(min: number, max: number, count = 5): Axis {
  if (!(max > min)) max = min + 1;
  const raw = (max - min) / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => s >= raw) ?? 10 * mag;
  const lo = Math.floor(min / step) * step;
  const hi = Math.ceil(max / step) * step;
  const ticks: number[] = [];
  for (let v = lo; v <= hi + step / 2; v += step) ticks.push(Math.round(v * 1e9) / 1e9);
  return { min: lo, max: hi, ticks };
}

/** The uptime axis: zoomed to the worst day (an axis from 0 would show every day as a full bar). */
export function uptimeAxis(values: ReadonlyArray<number | null>): Axis {
  const present = values.filter((v): v is number => v !== null);
  const worst = present.length > 0 ? Math.min(...present) : 100;
  const floor = worst >= 99.9 ? 99.8 : worst >= 99 ? 98 : worst >= 95 ? 90 : worst >= 80 ? 75 : 0;
  const axis = niceAxis(floor, 100, 4);
  return { ...axis, max: 100, ticks: axis.ticks.filter((t) => t <= 100) };
}

interface Plot {
  x: number;
  y: number;
  w: number;
  h: number;
  sy: (v: number) => number;
  sx: (i: number) => number;
  slot: number;
}

/** Title, y gridlines with labels, x labels (dates, thinned to fit), axis lines; the plot area. */
function frame(
  pdf: ReportPdf,
  box: Box,
  title: string,
  axis: Axis,
  labels: readonly string[],
  fmt: (v: number) => string,
) {
  const { doc } = pdf;
  pdf.line(title, box.x, box.y + 11, { size: 10, face: 'bold', width: box.w });
  const tickWidth = Math.max(...axis.ticks.map((t) => pdf.measure(fmt(t), 7))) + 6;
  const plot = { x: box.x + tickWidth, y: box.y + 22, w: box.w - tickWidth - 4, h: box.h - 22 - 30 };
  const sy = (v: number) =>
    plot.y + plot.h - ((Math.min(Math.max(v, axis.min), axis.max) - axis.min) / (axis.max - axis.min)) * plot.h;
  const n = Math.max(labels.length, 1);
  const slot = plot.w / n;
  const sx = (i: number) => plot.x + slot * (i + 0.5);
  doc.lineWidth(0.4).strokeColor(COLOURS.grid);
  for (const t of axis.ticks) {
    const y = sy(t);
    doc
      .moveTo(plot.x, y)
      .lineTo(plot.x + plot.w, y)
      .stroke();
    pdf.line(fmt(t), box.x, y + 2.5, { size: 7, colour: COLOURS.muted, width: tickWidth - 4, align: 'right' });
  }
  const every = Math.max(1, Math.ceil(labels.length / 10));
  labels.forEach((l, i) => {
    if (i % every !== 0) return;
    const x = sx(i);
    doc
      .moveTo(x, plot.y + plot.h)
      .lineTo(x, plot.y + plot.h + 3)
      .lineWidth(0.5)
      .strokeColor(COLOURS.axis)
      .stroke();
    pdf.line(l, x - 20, plot.y + plot.h + 12, { size: 7, colour: COLOURS.muted, width: 40, align: 'center' });
  });
  doc
    .moveTo(plot.x, plot.y)
    .lineTo(plot.x, plot.y + plot.h)
    .lineTo(plot.x + plot.w, plot.y + plot.h)
    .lineWidth(0.7)
    .strokeColor(COLOURS.axis)
    .stroke();
  return { ...plot, sy, sx, slot } satisfies Plot;
}

/** Says so in the middle of a plot that has nothing to draw (rather than an empty frame that reads as zero). */
function noData(pdf: ReportPdf, p: Plot, values: ReadonlyArray<number | null>): boolean {
  if (values.some((v) => v !== null)) return false;
  pdf.line('No data in this period.', p.x, p.y + p.h / 2 + 3, {
    size: 9,
    colour: COLOURS.muted,
    width: p.w,
    align: 'center',
  });
  return true;
}

/** `2026-10-07` → `10-07` (the year is on the first page). */
export function dayLabel(date: string): string {
  return date.length === 10 ? date.slice(5) : date;
}

export interface BarChart {
  title: string;
  labels: readonly string[];
  values: ReadonlyArray<number | null>;
  axis: Axis;
  format: (v: number) => string;
  /** Says what a day without a value means (drawn as a dashed outline). */
  nullNote?: string;
}

export function barChart(pdf: ReportPdf, box: Box, c: BarChart): void {
  const { doc } = pdf;
  const p = frame(pdf, box, c.title, c.axis, c.labels, c.format);
  if (c.values.length === 0 && noData(pdf, p, c.values)) return;
  const bw = Math.max(p.slot * 0.7, 0.8);
  let nulls = 0;
  c.values.forEach((v, i) => {
    const x = p.sx(i) - bw / 2;
    if (v === null) {
      nulls++;
      doc.rect(x, p.y, bw, p.h).dash(1.5, { space: 1.5 }).lineWidth(0.4).strokeColor(COLOURS.grid).stroke().undash();
      return;
    }
    const top = p.sy(v);
    const base = p.sy(c.axis.min);
    if (base - top > 0.05)
      doc
        .rect(x, top, bw, base - top)
        .fillColor(COLOURS.accent)
        .fill();
  });
  if (nulls > 0 && c.nullNote) {
    pdf.line(c.nullNote, box.x, box.y + box.h - 2, { size: 7, colour: COLOURS.muted, width: box.w });
  }
}

export interface LineSeries {
  name: string;
  values: ReadonlyArray<number | null>;
  /** Dash pattern [dash, gap]; none is a solid line. */
  dash?: [number, number];
  width?: number;
}

export interface LineChart {
  title: string;
  labels: readonly string[];
  series: readonly LineSeries[];
  format: (v: number) => string;
}

export function lineChart(pdf: ReportPdf, box: Box, c: LineChart): void {
  const { doc } = pdf;
  const all = c.series.flatMap((s) => s.values.filter((v): v is number => v !== null));
  const axis = niceAxis(0, all.length > 0 ? Math.max(...all) : 1, 4);
  const p = frame(pdf, { ...box, h: box.h - 12 }, c.title, axis, c.labels, c.format);
  if (noData(pdf, p, all)) return;
  for (const s of c.series) {
    doc.lineWidth(s.width ?? 1.2).strokeColor(COLOURS.text);
    if (s.dash) doc.dash(s.dash[0], { space: s.dash[1] });
    let open = false;
    s.values.forEach((v, i) => {
      if (v === null) {
        open = false;
        return;
      }
      if (open) doc.lineTo(p.sx(i), p.sy(v));
      else doc.moveTo(p.sx(i), p.sy(v));
      open = true;
    });
    doc.stroke().undash();
    // a lone day between gaps would be an invisible zero-length line: mark every point
    s.values.forEach((v, i) => {
      if (v !== null) doc.circle(p.sx(i), p.sy(v), 0.9).fillColor(COLOURS.text).fill();
    });
  }
  // legend: a sample of each line with its name, under the chart
  let x = box.x + 40;
  const y = box.y + box.h - 4;
  for (const s of c.series) {
    doc.lineWidth(s.width ?? 1.2).strokeColor(COLOURS.text);
    if (s.dash) doc.dash(s.dash[0], { space: s.dash[1] });
    doc
      .moveTo(x, y - 3)
      .lineTo(x + 24, y - 3)
      .stroke()
      .undash();
    pdf.line(s.name, x + 28, y, { size: 8 });
    x += 28 + pdf.measure(s.name, 8) + 18;
  }
}

export interface HBar {
  label: string;
  value: number;
  /** Written after the bar. */
  text: string;
}

/** Horizontal bars on a 0..max scale with an optional reference line (e.g. 100 % of an error budget). */
export function hbarChart(
  pdf: ReportPdf,
  box: Box,
  c: { title: string; bars: readonly HBar[]; max: number; reference?: { value: number; label: string } },
): void {
  const { doc } = pdf;
  pdf.line(c.title, box.x, box.y + 11, { size: 10, face: 'bold', width: box.w });
  const labelW = box.w * 0.3;
  const textW = 90;
  const x0 = box.x + labelW + 6;
  const w = box.w - labelW - 6 - textW;
  const rowH = Math.min(18, (box.h - 22) / Math.max(c.bars.length, 1));
  const top = box.y + 22;
  const sx = (v: number) => x0 + (Math.min(Math.max(v, 0), c.max) / c.max) * w;
  c.bars.forEach((b, i) => {
    const y = top + i * rowH;
    pdf.line(b.label, box.x, y + rowH * 0.65, { size: 8, width: labelW });
    doc
      .rect(x0, y + rowH * 0.2, w, rowH * 0.6)
      .lineWidth(0.4)
      .strokeColor(COLOURS.grid)
      .stroke();
    if (b.value > 0)
      doc
        .rect(x0, y + rowH * 0.2, sx(b.value) - x0, rowH * 0.6)
        .fillColor(COLOURS.accent)
        .fill();
    pdf.line(b.text, x0 + w + 6, y + rowH * 0.65, { size: 8, width: textW - 6 });
  });
  if (c.reference) {
    const x = sx(c.reference.value);
    const bottom = top + c.bars.length * rowH;
    doc
      .moveTo(x, top - 4)
      .lineTo(x, bottom)
      .dash(3, { space: 2 })
      .lineWidth(0.8)
      .strokeColor(COLOURS.bad);
    doc.stroke().undash();
    pdf.line(c.reference.label, x - 40, top - 6, { size: 7, colour: COLOURS.muted, width: 80, align: 'center' });
  }
}
