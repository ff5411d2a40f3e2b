/**
 * Issue 36 item 8: how the filtered list pages of the API mix find their rows, on SQLite and PostgreSQL, over 10,000
 * monitors shaped as the API benches make them (bench/api/api.fixture.ts: `service i`, 500 per `team-k` tag, a
 * quarter in staging), written by the monitors repository. For each list of the mix: the time of a page by each plan
 * (`scan` in order, the tag or text index's `candidates` fetched, `auto`: the repository's choice), median of RUNS,
 * and the database's plan of every statement the automatic choice sent (EXPLAIN QUERY PLAN / EXPLAIN).
 *
 *   node bench/api/list-plans.bench.ts        (PostgreSQL too when TOCSIN_TEST_POSTGRES_URL is set)
 *   BENCH_RUNS=200 BENCH_DIALECTS=sqlite      → more runs, one database
 */
import { CompiledQuery, type QueryResult } from 'kysely';
import { cpus, loadavg } from 'node:os';
import { createTestDatabase, testDialects } from '../../test/support/databases.ts';
import { sampleMonitor } from '../../test/support/monitors.ts';
import { PrecompiledQueries, type Database } from '../../src/platform/db/index.ts';
import { ManualClock } from '../../src/platform/clock.ts';
import { createOrgs } from '../../src/modules/orgs/index.ts';
import { MonitorsRepository, type ListPlan } from '../../src/modules/monitors/monitors.repository.ts';
import type { MonitorFilter } from '../../src/modules/monitors/index.ts';
import { benchMonitorBody } from './api.fixture.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 100);
const DIALECTS = process.env.BENCH_DIALECTS?.split(',') ?? testDialects();
const MONITORS = 10_000;
const T0 = Date.parse('2026-11-29T00:00:00.000Z');

/** The lists of the mix (api.op-cost.bench.ts), with a tag that matches (team-4) and one that does not (team-3). */
const LISTS: Array<[string, MonitorFilter, number]> = [
  ['q=api-1&limit=20', { q: 'api-1' }, 20],
  ['q=service 12&limit=50', { q: 'service 12' }, 50],
  ['status=pending&tag=team-4&limit=50', { status: 'pending', tag: 'team-4' }, 50],
  ['type=http&tag=team-3&limit=20', { type: 'http', tag: 'team-3' }, 20],
  ['environment=staging&tag=team-3&limit=50', { environment: 'staging', tag: 'team-3' }, 50],
  ['environment=staging&tag=team-4&limit=50', { environment: 'staging', tag: 'team-4' }, 50],
  ['q=api-1&tag=team-3&limit=20', { q: 'api-1', tag: 'team-3' }, 20],
  ['q=service 12&tag=team-12&limit=50', { q: 'service 12', tag: 'team-12' }, 50],
  ['tag=public&limit=50', { tag: 'public' }, 50],
];

/** Records every statement the database runs (its Kysely instance is shared by every repository built on it). */
function recorder(database: Database): { statements: CompiledQuery[] } {
  const executor = database.tables<unknown>().getExecutor();
  const run = executor.executeQuery.bind(executor);
  const log = { statements: [] as CompiledQuery[] };
  executor.executeQuery = <R>(compiled: CompiledQuery, queryId: Parameters<typeof run>[1]) => {
    log.statements.push(compiled);
    return run(compiled, queryId) as Promise<QueryResult<R>>;
  };
  return log;
}

async function planOf(database: Database, statement: CompiledQuery): Promise<string> {
  const explain = database.dialect === 'sqlite' ? 'explain query plan ' : 'explain ';
  const result = await database
    .tables<unknown>()
    .executeQuery<Record<string, unknown>>(CompiledQuery.raw(explain + statement.sql, [...statement.parameters]));
  return result.rows
    .map((r) => String(r.detail ?? r['QUERY PLAN']))
    .map((line) => `      ${line.length > 200 ? `${line.slice(0, 200)}…` : line}`)
    .join('\n');
}

console.log(
  `machine: ${cpus().length} × ${cpus()[0]?.model ?? '?'}, node ${process.version}, ${new Date().toISOString()}`,
);
for (const dialect of DIALECTS) {
  const db = await createTestDatabase(dialect as Database['dialect']);
  try {
    const repository = new MonitorsRepository(db.database);
    const orgs = createOrgs({
      database: db.database,
      clock: new ManualClock(T0),
      defaultPlan: 'enterprise',
      defaultRegion: 'local',
    });
    const organizationId = (await orgs.createOrganization({ name: 'Bench' })).id;
    await db.database.transaction(async (tx) => {
      const inTx = new MonitorsRepository(tx);
      for (let i = 0; i < MONITORS; i++) {
        const active = i % 20 === 0;
        const body = benchMonitorBody(i, active ? { target: 'http://127.0.0.1:9/health', intervalSeconds: 10 } : null);
        await inTx.insert(
          sampleMonitor(organizationId, T0 + i, {
            name: body.name as string,
            type: body.type as 'http',
            target: body.target as string,
            tags: body.tags as string[],
            environment: body.environment as string,
            paused: !active,
            status: active ? 'pending' : 'paused',
          }),
        );
      }
    });
    if (dialect === 'postgres') await db.database.tables<unknown>().executeQuery(CompiledQuery.raw('analyze'));
    const queries = new PrecompiledQueries();
    const log = recorder(db.database);
    console.log(`\n## ${dialect}, ${MONITORS} monitors, load ${loadavg()[0]!.toFixed(1)}\n`);
    console.log('| list | rows | scan µs | candidates µs | auto µs |');
    console.log('|---|---:|---:|---:|---:|');
    const plans: string[] = [];
    for (const [name, filter, limit] of LISTS) {
      const micros: Record<ListPlan, number> = { scan: 0, candidates: 0, auto: 0 };
      let rows = 0;
      for (const plan of ['scan', 'candidates', 'auto'] as const) {
        const page = () => repository.list({ organizationId }, filter, undefined, limit, 'id', queries, plan);
        rows = (await page()).length;
        const times: number[] = [];
        for (let r = 0; r < RUNS; r++) {
          const t0 = performance.now();
          await page();
          times.push(performance.now() - t0);
        }
        micros[plan] = Math.round(1000 * times.sort((a, b) => a - b)[Math.floor(times.length / 2)]!);
      }
      console.log(`| ${name} | ${rows} | ${micros.scan} | ${micros.candidates} | ${micros.auto} |`);
      log.statements.length = 0;
      await repository.list({ organizationId }, filter, undefined, limit, 'id', queries, 'auto');
      const sent = [...log.statements];
      plans.push(`- ${name}:`);
      for (const statement of sent) {
        plans.push(`  - \`${statement.sql.replace(/\s+/g, ' ').slice(0, 160)}…\``);
        plans.push(await planOf(db.database, statement));
      }
    }
    console.log(`\nPlans of the automatic choice (${dialect}):\n`);
    console.log(plans.join('\n'));
  } finally {
    await db.drop();
  }
}
