import { composePdf, type PdfJob } from './report-pdf.compose.ts';
import { ReportFonts } from './report-pdf.fonts.ts';

/** Draws the PDF of a job: the ReportRenderer's only way to a PDF (InThreadPdf, or ReportBuildPool's `compose`). */
export interface PdfComposer {
  compose(job: PdfJob): Promise<Buffer>;
  close(): Promise<void>;
}

/**
 * PDFs drawn on the calling thread: a report worker thread's own (the job runs there), a process with
 * `reports.workers` 0, benchmarks of the drawing's CPU cost. The fonts are parsed at the first PDF unless given.
 */
export class InThreadPdf implements PdfComposer {
  private fonts: ReportFonts | null;

  /** `fonts`: a thread's parsed fonts when it has them already (a report worker). */
  constructor(fonts: ReportFonts | null = null) {
    this.fonts = fonts;
  }

  compose(job: PdfJob): Promise<Buffer> {
    this.fonts ??= new ReportFonts();
    return composePdf(this.fonts, job);
  }

  async close(): Promise<void> {}
}
