import PDFDocument from 'pdfkit';
import type { ReportFonts, FontFace } from './report-pdf.fonts.ts';
import { formatInstant } from './report-pdf.format.ts';

/** What the first page and the running header say about a document. */
export interface PdfMeta {
  organization: string;
  /** "Availability report", or a custom report's name. */
  title: string;
  period: { from: string; to: string; timezone: string };
  generatedAt: string;
}

export interface KeyFigure {
  label: string;
  value: string;
  /** A short line under the number (unit, comparison). */
  note?: string;
}

export interface TableColumn<R> {
  header: string;
  /** Share of the content width (the shares of a table add up to 1). */
  width: number;
  align?: 'left' | 'right';
  /** Long text wraps onto several lines in this column instead of being cut with an ellipsis. */
  wrap?: boolean;
  value: (row: R) => string;
  /** Draws the cell instead of writing its value (a small chart); the box is the cell less its padding. */
  draw?: (pdf: ReportPdf, row: R, box: Box) => void;
}

export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

type Face = 'regular' | 'bold';

export const A4 = { width: 595.28, height: 841.89 };
const MARGIN_X = 48;
const TOP = 60;
const BOTTOM = A4.height - 56;
const ELLIPSIS = '…';
export const COLOURS = {
  text: '#111111',
  muted: '#555555',
  grid: '#c8c8c8',
  axis: '#444444',
  headerFill: '#e4e4e4',
  zebra: '#f4f4f4',
  accent: '#2f5d8a',
  bad: '#8a2f2f',
};

/**
 * The layout layer every report PDF is drawn with: A4 pages, the first page with the key figures, headings,
 * wrapped paragraphs, tables whose header row repeats on every page, boxes for charts, and at the end a running
 * header and "Page X of Y" on every page (pdfkit's buffered pages). Text is drawn in runs of DejaVu Sans and, for
 * what DejaVu lacks, Droid Sans Fallback, both embedded as subsets.
 */
export class ReportPdf {
  readonly doc: PDFKit.PDFDocument;
  readonly left = MARGIN_X;
  readonly width = A4.width - 2 * MARGIN_X;
  y = TOP;
  private readonly fonts: ReportFonts;
  private readonly meta: PdfMeta;
  private readonly chunks: Buffer[] = [];
  private pageStarted = false;
  private coverEnd = TOP;

  constructor(fonts: ReportFonts, meta: PdfMeta) {
    this.fonts = fonts;
    this.meta = meta;
    const created = new Date(meta.generatedAt);
    this.doc = new PDFDocument({
      size: 'A4',
      margin: 0,
      bufferPages: true,
      autoFirstPage: false,
      font: null as unknown as string, // no Helvetica: every face is an embedded TTF
      lang: 'en',
      displayTitle: true,
      info: {
        Title: `${meta.title} — ${meta.organization}`,
        Author: 'Tocsin',
        Creator: 'Tocsin',
        Producer: 'Tocsin (pdfkit)',
        CreationDate: created,
        ModDate: created,
      },
    });
    // pdfkit takes a parsed fontkit font as well as bytes (its types only say bytes): parsed once per renderer
    for (const face of ['regular', 'bold', 'fallback'] as const) {
      this.doc.registerFont(face, fonts.faces[face] as unknown as Buffer);
    }
    this.doc.on('data', (chunk: Buffer) => this.chunks.push(chunk));
  }

  // ---- text ---------------------------------------------------------------------------------------------------

  /** Width of `text` in points. */
  measure(text: string, size: number, face: Face = 'regular'): number {
    return this.fonts.width(text, face) * size;
  }

  /** `text` cut with an ellipsis so that it fits `width`. */
  fit(text: string, width: number, size: number, face: Face = 'regular'): string {
    if (this.fonts.width(text, face) * size <= width) return text;
    const room = width / size - this.fonts.width(ELLIPSIS, face);
    return this.fonts.prefix(text, face, Math.max(room, 0)).text.trimEnd() + ELLIPSIS;
  }

  /** One line whose baseline is at `baseline`; `align` right puts its end at x + width. */
  line(
    text: string,
    x: number,
    baseline: number,
    opts: { size: number; face?: Face; colour?: string; width?: number; align?: 'left' | 'right' | 'center' } = {
      size: 9,
    },
  ): void {
    const face = opts.face ?? 'regular';
    const s = opts.width !== undefined ? this.fit(text, opts.width, opts.size, face) : text;
    if (s.length === 0) return;
    let at = x;
    if (opts.width !== undefined && opts.align && opts.align !== 'left') {
      const w = this.measure(s, opts.size, face);
      at = opts.align === 'right' ? x + opts.width - w : x + (opts.width - w) / 2;
    }
    this.doc.fillColor(opts.colour ?? COLOURS.text);
    for (const run of this.fonts.runs(s, face)) {
      this.drawRun(run.face, run.text, at, baseline, opts.size);
      at += this.fonts.runWidth(run) * opts.size;
    }
  }

  private drawRun(face: FontFace, text: string, x: number, baseline: number, size: number): void {
    this.doc.font(face).fontSize(size).text(text, x, baseline, { lineBreak: false, baseline: 'alphabetic' });
  }

  /** The largest size up to `size` at which `text` (bold) fits `width`: a key figure is never cut. */
  private shrink(text: string, size: number, width: number): number {
    const w = this.measure(text, size, 'bold');
    return w <= width ? size : Math.max(7, Math.floor((size * width * 10) / w) / 10);
  }

  /** Greedy word wrap of `text` into lines no wider than `width` (a word longer than a line is cut). */
  wrap(text: string, width: number, size: number, face: Face = 'regular'): string[] {
    const lines: string[] = [];
    for (const paragraph of text.split('\n')) {
      let current = '';
      for (const word of paragraph.split(/\s+/).filter((w) => w.length > 0)) {
        const candidate = current.length === 0 ? word : `${current} ${word}`;
        if (this.measure(candidate, size, face) <= width) current = candidate;
        else {
          if (current.length > 0) lines.push(current);
          current = this.measure(word, size, face) <= width ? word : this.fit(word, width, size, face);
        }
      }
      lines.push(current);
    }
    return lines;
  }

  // ---- flow ---------------------------------------------------------------------------------------------------

  /** A new page; the content starts under the running header. */
  newPage(): void {
    this.doc.addPage({ size: 'A4', margin: 0 });
    this.pageStarted = true;
    this.y = TOP;
  }

  /** Starts a page when fewer than `height` points are left on this one. */
  ensure(height: number): void {
    if (!this.pageStarted || this.y + height > BOTTOM) this.newPage();
  }

  get remaining(): number {
    return BOTTOM - this.y;
  }

  /** A heading kept on one page with the first `keepWith` points of what follows it. */
  heading(text: string, size = 14, keepWith = 40): void {
    this.ensure(size * 3 + keepWith);
    this.y += size * 0.6;
    this.line(text, this.left, this.y + size, { size, face: 'bold', width: this.width });
    this.y += size * 1.7;
  }

  paragraph(text: string, opts: { size?: number; colour?: string } = {}): void {
    const size = opts.size ?? 9;
    const lh = size * 1.45;
    for (const l of this.wrap(text, this.width, size)) {
      this.ensure(lh);
      this.line(l, this.left, this.y + size, { size, ...(opts.colour !== undefined && { colour: opts.colour }) });
      this.y += lh;
    }
    this.y += lh * 0.5;
  }

  /** Reserves a box of `height` points for a chart (on a new page when it does not fit). */
  box(height: number): Box {
    this.ensure(height);
    const b = { x: this.left, y: this.y, w: this.width, h: height };
    this.y += height + 8;
    return b;
  }

  // ---- first page -----------------------------------------------------------------------------------------------

  /** The first page: organization, report, period in its time zone, generation time, and the key figures. */
  cover(figures: readonly KeyFigure[]): void {
    this.newPage();
    const { meta } = this;
    const tz = meta.period.timezone;
    this.line(meta.organization, this.left, 92, { size: 12, colour: COLOURS.muted, width: this.width });
    this.line(meta.title, this.left, 124, { size: 24, face: 'bold', width: this.width });
    const rows: Array<[string, string]> = [
      ['Period', `${formatInstant(meta.period.from, tz)} – ${formatInstant(meta.period.to, tz)} (end excluded)`],
      ['Time zone', tz],
      ['Generated', `${formatInstant(meta.generatedAt, tz)} (${tz})`],
    ];
    let y = 156;
    for (const [k, v] of rows) {
      this.line(k, this.left, y, { size: 10, colour: COLOURS.muted });
      this.line(v, this.left + 80, y, { size: 10, width: this.width - 80 });
      y += 16;
    }
    y += 14;
    const cols = 3;
    const gap = 10;
    const w = (this.width - gap * (cols - 1)) / cols;
    const h = 74;
    figures.forEach((f, i) => {
      const x = this.left + (i % cols) * (w + gap);
      const top = y + Math.floor(i / cols) * (h + gap);
      this.doc.lineWidth(0.8).roundedRect(x, top, w, h, 4).strokeColor(COLOURS.grid).stroke();
      this.line(f.label, x + 10, top + 18, { size: 9, colour: COLOURS.muted, width: w - 20 });
      this.line(f.value, x + 10, top + 48, { size: this.shrink(f.value, 22, w - 20), face: 'bold', width: w - 20 });
      if (f.note) this.line(f.note, x + 10, top + 64, { size: 8, colour: COLOURS.muted, width: w - 20 });
    });
    this.y = y + Math.ceil(figures.length / cols) * (h + gap) + 10;
    this.coverEnd = this.y;
  }

  /** The number of the page being drawn (1 for the first). */
  get page(): number {
    return this.doc.bufferedPageRange().count;
  }

  /**
   * A list of parts with the page each starts on, drawn on the first page under the key figures (called once the
   * parts are drawn, when their pages are known).
   */
  contents(entries: ReadonlyArray<{ title: string; note: string; page: number }>): void {
    const { start, count } = this.doc.bufferedPageRange();
    const [y, last] = [this.y, start + count - 1];
    this.doc.switchToPage(start);
    this.y = this.coverEnd + 6;
    this.line('Contents', this.left, this.y + 12, { size: 12, face: 'bold' });
    this.y += 22;
    for (const e of entries) {
      if (this.y + 14 > BOTTOM) break; // a first page holds about 35 parts; the rest are listed by their pages
      this.line(e.title, this.left, this.y + 10, { size: 10, width: this.width * 0.55 });
      this.line(e.note, this.left + this.width * 0.57, this.y + 10, {
        size: 9,
        colour: COLOURS.muted,
        width: this.width * 0.3,
      });
      this.line(`page ${e.page}`, this.left + this.width * 0.87, this.y + 10, {
        size: 10,
        width: this.width * 0.13,
        align: 'right',
      });
      this.y += 15;
    }
    this.doc.switchToPage(last);
    this.y = y;
  }

  /** Key figures as a compact row of tiles (a section's head in a document of several reports). */
  figures(figures: readonly KeyFigure[]): void {
    if (figures.length === 0) return;
    const cols = Math.min(4, figures.length);
    const gap = 8;
    const w = (this.width - gap * (cols - 1)) / cols;
    const h = 46;
    const rows = Math.ceil(figures.length / cols);
    this.ensure(rows * (h + gap));
    figures.forEach((f, i) => {
      const x = this.left + (i % cols) * (w + gap);
      const top = this.y + Math.floor(i / cols) * (h + gap);
      this.doc.lineWidth(0.6).roundedRect(x, top, w, h, 3).strokeColor(COLOURS.grid).stroke();
      this.line(f.label, x + 8, top + 14, { size: 8, colour: COLOURS.muted, width: w - 16 });
      this.line(f.value, x + 8, top + 36, { size: this.shrink(f.value, 15, w - 16), face: 'bold', width: w - 16 });
    });
    this.y += rows * (h + gap) + 6;
  }

  // ---- tables ---------------------------------------------------------------------------------------------------

  /**
   * A table: a shaded header row, then the rows; when a row does not fit, a new page starts and the header row is
   * drawn again. Cells are one line cut with an ellipsis unless their column wraps; right-aligned columns are
   * numbers.
   */
  table<R>(columns: ReadonlyArray<TableColumn<R>>, rows: readonly R[], opts: { size?: number; empty?: string } = {}) {
    const size = opts.size ?? 8;
    const lh = size * 1.5;
    const pad = 3;
    const widths = columns.map((c) => c.width * this.width);
    const xs: number[] = [];
    widths.reduce((x, w) => (xs.push(x), x + w), this.left);
    const header = () => {
      this.doc
        .rect(this.left, this.y, this.width, lh + 2)
        .fillColor(COLOURS.headerFill)
        .fill();
      columns.forEach((c, i) =>
        this.line(c.header, xs[i]! + pad, this.y + size + 3, {
          size,
          face: 'bold',
          width: widths[i]! - 2 * pad,
          align: c.align ?? 'left',
        }),
      );
      this.y += lh + 2;
    };
    this.ensure(lh * 3);
    header();
    if (rows.length === 0) {
      this.line(opts.empty ?? 'Nothing in this period.', this.left + pad, this.y + size + 3, {
        size,
        colour: COLOURS.muted,
      });
      this.y += lh + 6;
      return;
    }
    rows.forEach((row, r) => {
      const cells = columns.map((c, i) =>
        c.draw ? [] : c.wrap ? this.wrap(c.value(row), widths[i]! - 2 * pad, size) : [c.value(row)],
      );
      const height = Math.max(1, ...cells.map((l) => l.length)) * lh;
      if (this.y + height > BOTTOM) {
        this.newPage();
        header();
      }
      if (r % 2 === 1) this.doc.rect(this.left, this.y, this.width, height).fillColor(COLOURS.zebra).fill();
      cells.forEach((lines, i) =>
        lines.forEach((text, k) =>
          this.line(text, xs[i]! + pad, this.y + k * lh + size + 2, {
            size,
            width: widths[i]! - 2 * pad,
            align: columns[i]!.align ?? 'left',
          }),
        ),
      );
      columns.forEach((c, i) => {
        if (c.draw) c.draw(this, row, { x: xs[i]! + pad, y: this.y + 2, w: widths[i]! - 2 * pad, h: lh - 3 });
      });
      this.y += height;
    });
    this.doc
      .moveTo(this.left, this.y)
      .lineTo(this.left + this.width, this.y)
      .lineWidth(0.5)
      .strokeColor(COLOURS.grid)
      .stroke();
    this.y += 10;
  }

  // ---- end ------------------------------------------------------------------------------------------------------

  /** The methodology note, the running header and "Page X of Y" on every page; the finished file. */
  async finish(methodology: string): Promise<Buffer> {
    this.heading('Methodology', 12);
    // Several sections may bring several notes (report.render.ts joins them with a blank line): one paragraph each.
    for (const note of methodology.split('\n\n')) this.paragraph(note, { size: 8.5, colour: COLOURS.muted });
    const { start, count } = this.doc.bufferedPageRange();
    const tz = this.meta.period.timezone;
    const period = `${formatInstant(this.meta.period.from, tz)} – ${formatInstant(this.meta.period.to, tz)} ${tz}`;
    for (let i = start; i < start + count; i++) {
      this.doc.switchToPage(i);
      if (i > start) {
        const half = this.width / 2;
        this.line(`${this.meta.organization} · ${this.meta.title}`, this.left, 34, {
          size: 8,
          colour: COLOURS.muted,
          width: half - 6,
        });
        this.line(period, this.left + half, 34, { size: 8, colour: COLOURS.muted, width: half, align: 'right' });
        this.doc
          .moveTo(this.left, 40)
          .lineTo(this.left + this.width, 40)
          .lineWidth(0.5)
          .strokeColor(COLOURS.grid);
        this.doc.stroke();
      }
      this.line(`Generated by Tocsin ${formatInstant(this.meta.generatedAt, tz)} ${tz}`, this.left, A4.height - 30, {
        size: 8,
        colour: COLOURS.muted,
        width: this.width / 2,
      });
      this.line(`Page ${i - start + 1} of ${count}`, this.left + this.width / 2, A4.height - 30, {
        size: 8,
        colour: COLOURS.muted,
        width: this.width / 2,
        align: 'right',
      });
    }
    const done = new Promise<void>((resolve, reject) => {
      this.doc.on('end', () => resolve());
      this.doc.on('error', reject);
    });
    this.doc.end();
    await done;
    return Buffer.concat(this.chunks);
  }
}
