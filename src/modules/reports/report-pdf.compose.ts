import { availabilityLayout } from './availability.pdf.ts';
import { incidentsLayout } from './incidents.pdf.ts';
import { intelligenceLayout } from './intelligence.pdf.ts';
import { monitorHealthLayout } from './monitor-health.pdf.ts';
import { performanceLayout } from './performance.pdf.ts';
import { ReportPdf, type KeyFigure } from './report-pdf.document.ts';
import type { ReportFonts } from './report-pdf.fonts.ts';
import type { PdfLayout, ReportKind, ReportOf, ReportSection } from './report.kinds.ts';
import type { ReportPeriod } from './report.types.ts';
import { slaLayout } from './sla.pdf.ts';

/** The layout of each kind (one per kind, drawn from the DECISIONS §11 JSON). */
const LAYOUTS: { [K in ReportKind]: PdfLayout<ReportOf[K]> } = {
  availability: availabilityLayout,
  performance: performanceLayout,
  sla: slaLayout,
  incidents: incidentsLayout,
  intelligence: intelligenceLayout,
  monitor_health: monitorHealthLayout,
};

/** Everything a PDF is made from: plain data, so that it can be handed to a worker thread. */
export type PdfJob =
  | { type: 'report'; organization: string; kind: ReportKind; report: ReportOf[ReportKind]; methodology: string }
  | {
      type: 'sections';
      organization: string;
      title: string;
      period: ReportPeriod;
      generatedAt: string;
      sections: readonly ReportSection[];
      methodology: string;
    };

/** The title a kind's PDF carries. */
export function layoutTitle(kind: ReportKind): string {
  return LAYOUTS[kind].title;
}

const layoutOf = (kind: ReportKind) => LAYOUTS[kind] as PdfLayout<ReportOf[ReportKind]>;

/** The first figure of a section stands for it on a document's first page. */
function sectionFigure(s: ReportSection): KeyFigure {
  const layout = layoutOf(s.kind);
  const first = layout.figures(s.report)[0];
  return { label: s.title, value: first?.value ?? '—', note: first?.label ?? layout.title };
}

/** Draws the document of a job: first page, the kind's (or each section's) charts and tables, methodology. */
export async function composePdf(fonts: ReportFonts, job: PdfJob): Promise<Buffer> {
  if (job.type === 'report') {
    const layout = layoutOf(job.kind);
    const pdf = new ReportPdf(fonts, {
      organization: job.organization,
      title: layout.title,
      period: job.report.period,
      generatedAt: job.report.generated_at,
    });
    pdf.cover(layout.figures(job.report));
    layout.body(pdf, job.report);
    return pdf.finish(job.methodology);
  }
  const pdf = new ReportPdf(fonts, {
    organization: job.organization,
    title: job.title,
    period: job.period,
    generatedAt: job.generatedAt,
  });
  pdf.cover(job.sections.map(sectionFigure));
  const parts: Array<{ title: string; note: string; page: number }> = [];
  for (const s of job.sections) {
    const layout = layoutOf(s.kind);
    pdf.newPage();
    parts.push({ title: s.title, note: layout.title, page: pdf.page });
    pdf.heading(s.title, 16);
    pdf.paragraph(layout.title, { size: 9 });
    pdf.figures(layout.figures(s.report));
    layout.body(pdf, s.report);
  }
  pdf.contents(parts);
  return pdf.finish(job.methodology);
}
