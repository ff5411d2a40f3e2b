import { describe, expect, it } from 'vitest';
import { ReportBuildPool } from './report-build.pool.ts';
import type { PdfJob } from './report-pdf.compose.ts';

const job = (kind: string): PdfJob =>
  ({
    type: 'report',
    organization: 'Org',
    kind,
    report: {
      report: 'monitor_health',
      period: { from: '2026-11-01T00:00:00Z', to: '2026-11-02T00:00:00Z', timezone: 'UTC', preset: null },
      generated_at: '2026-11-02T00:00:00Z',
      methodology: 'm',
      monitors: [],
    },
    methodology: 'How it was counted.',
  }) as unknown as PdfJob;

const FIXTURE = new URL('../../../test/reports/report-worker.fixture.ts', import.meta.url);

// PDFs of reports given whole are drawn by the one report pool (there is no PDF pool of its own any more).
describe('ReportBuildPool.compose', () => {
  it('draws on its thread, passes a failure back as an error, and starts again after close', async () => {
    const pool = new ReportBuildPool({ workers: 1, timeoutMs: 60_000, idleMs: 0, compose: FIXTURE, setup: {} });
    try {
      const [a, b] = await Promise.all([pool.compose(job('monitor_health')), pool.compose(job('monitor_health'))]);
      expect(a.subarray(0, 5).toString()).toBe('%PDF-');
      expect(b.length).toBe(a.length);
      await expect(pool.compose(job('no_such_kind'))).rejects.toThrow(/PDF rendering failed: /);
      await pool.close();
      const again = await pool.compose(job('monitor_health'));
      expect(again.subarray(0, 5).toString()).toBe('%PDF-');
    } finally {
      await pool.close();
    }
  });
});
