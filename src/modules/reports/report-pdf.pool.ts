import { Worker } from 'node:worker_threads';
import { composePdf, type PdfJob } from './report-pdf.compose.ts';
import { ReportFonts } from './report-pdf.fonts.ts';

/** Draws the PDF of a job; the ReportRenderer's only way to a PDF. */
export interface PdfComposer {
  compose(job: PdfJob): Promise<Buffer>;
  close(): Promise<void>;
}

type Pending = { resolve: (body: Buffer) => void; reject: (err: Error) => void };

/**
 * PDFs drawn on one worker thread, started at the first PDF and kept (its fonts parsed once); jobs queue there in
 * order. The thread keeps the process alive only while a job is out. If it dies, the jobs it had fail and the next
 * job starts a new one.
 */
export class PdfWorkerPool implements PdfComposer {
  private worker: Worker | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;

  compose(job: PdfJob): Promise<Buffer> {
    const worker = this.worker ?? this.start();
    const id = this.nextId++;
    // while a job is out the thread keeps the process alive (a script awaiting its PDF), idle it does not
    worker.ref();
    return new Promise<Buffer>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ id, job });
    });
  }

  private start(): Worker {
    const worker = new Worker(new URL('./report-pdf.worker.ts', import.meta.url));
    worker.unref();
    worker.on('message', (m: { id: number; body?: Uint8Array; error?: string }) => {
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      if (this.pending.size === 0) worker.unref();
      if (m.body) p.resolve(Buffer.from(m.body.buffer, m.body.byteOffset, m.body.byteLength));
      else p.reject(new Error(`PDF rendering failed: ${m.error ?? 'no reason given'}`));
    });
    const fail = (err: Error) => {
      if (this.worker === worker) this.worker = null;
      for (const p of this.pending.values()) p.reject(err);
      this.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the PDF worker stopped (exit code ${code})`)));
    this.worker = worker;
    return worker;
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    if (worker) await worker.terminate();
  }
}

/** PDFs drawn on the calling thread (benchmarks of the drawing's own CPU cost; tools). */
export class InThreadPdf implements PdfComposer {
  private readonly fonts: ReportFonts;

  /** `fonts`: a thread's parsed fonts when it has them already (a report worker). */
  constructor(fonts: ReportFonts = new ReportFonts()) {
    this.fonts = fonts;
  }

  compose(job: PdfJob): Promise<Buffer> {
    return composePdf(this.fonts, job);
  }

  async close(): Promise<void> {}
}
