/**
 * The worker thread that draws report PDFs (started by PdfWorkerPool): a document of 1,000 monitors is a few hundred
 * milliseconds of CPU, which must not hold up the check engine and the API on the main thread.
 */
import { parentPort } from 'node:worker_threads';
import { composePdf, type PdfJob } from './report-pdf.compose.ts';
import { ReportFonts } from './report-pdf.fonts.ts';

const fonts = new ReportFonts();
const port = parentPort!;

port.on('message', (message: { id: number; job: PdfJob }) => {
  composePdf(fonts, message.job).then(
    (body) => {
      const bytes = new Uint8Array(body.buffer, body.byteOffset, body.byteLength).slice();
      port.postMessage({ id: message.id, body: bytes }, [bytes.buffer]);
    },
    (err: unknown) => port.postMessage({ id: message.id, error: err instanceof Error ? err.message : String(err) }),
  );
});
