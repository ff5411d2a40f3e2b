/**
 * A report worker composition for ReportBuildPool's test (report-build.pool.test.ts): the real worker thread and
 * protocol, with report builders that answer, refuse, crash the thread or never end, chosen by the report input.
 */
import {
  InThreadPdf,
  ReportRenderer,
  type ReportFonts,
  type ReportWorkerHost,
} from '../../src/modules/reports/index.ts';
import { openDatabase } from '../../src/platform/db/index.ts';
import { validationFailed } from '../../src/platform/errors.ts';

export async function composeReportWorker(setup: unknown, fonts: ReportFonts): Promise<ReportWorkerHost> {
  const { organization } = setup as { organization: string };
  const database = openDatabase({ url: null, sqlitePath: ':memory:' });
  const renderer = new ReportRenderer({
    pdf: new InThreadPdf(fonts),
    organizationName: async () => organization,
    builders: {
      sla: async (ctx, input) => {
        if (input.timezone === 'crash') {
          // Closed first: a thread that exits with a better-sqlite3 database open can crash the whole process at its
          // teardown (WiseLibs/better-sqlite3#1476), which took down the test worker (SIGTRAP) instead of this thread.
          await database.close();
          process.exit(3);
        }
        if (input.timezone === 'hang') await new Promise(() => {});
        if (input.timezone === 'refuse') throw validationFailed([{ field: 'timezone', issue: 'refused' }]);
        const period = { from: input.from!, to: input.to!, timezone: 'UTC', preset: null };
        return {
          report: 'sla',
          period,
          generated_at: new Date(ctx.clock.now()).toISOString(),
          methodology: `for ${ctx.actor.organizationId}`,
          summary: { targets: 0, in_progress: 0, budget_exhausted: 0, no_data: 0, met: 0, missed: 0 },
          targets: [],
        };
      },
    },
  });
  return { renderer, database, close: () => database.close() };
}
