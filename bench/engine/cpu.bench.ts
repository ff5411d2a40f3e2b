/**
 * Issue 18 item 1 in one command: idle CPU (no monitors, every role on) and CPU per check at 1,000 monitors /
 * 50 checks/s, on SQLite and PostgreSQL, of real `tocsin serve` processes (CPU from /proc), for one or more source
 * trees run in interleaved rounds (a shared machine's load drifts: only figures of the same round compare).
 *   node bench/engine/cpu.bench.ts [--rounds 3] [--dialects sqlite,postgres] [--root /path/to/other/tree ...]
 *     [--monitors 1000] [--interval 20] [--minutes 1] [--idle-seconds 60] [--warm-seconds 60]
 * Each tree runs its own bench/engine/idle.bench.ts and engine.bench.ts (so a tree from before this file existed
 * can be measured as it was); the first tree is this one, `--root` adds others. The order of the trees alternates
 * between rounds. PostgreSQL: DATABASE_URL or TOCSIN_TEST_POSTGRES_URL (a fresh database per run).
 * Prints one JSON line per run and, at the end, the medians per tree and dialect.
 */
import { spawn } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values: args } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    dialects: { type: 'string', default: 'sqlite,postgres' },
    root: { type: 'string', multiple: true, default: [] },
    monitors: { type: 'string', default: '1000' },
    interval: { type: 'string', default: '20' },
    minutes: { type: 'string', default: '1' },
    'idle-seconds': { type: 'string', default: '60' },
    // The issue's protocol warms up for a minute; unset, each tree's engine bench uses its own (interval + 10 s).
    'warm-seconds': { type: 'string' },
  },
});
const roots = [fileURLToPath(new URL('../../', import.meta.url)), ...args.root];
const dialects = args.dialects.split(',').map((d) => d.trim());
for (const d of dialects) if (d !== 'sqlite' && d !== 'postgres') throw new Error(`unknown dialect ${d}`);

interface RunFigures {
  root: string;
  dialect: string;
  round: number;
  load1: number;
  idlePercent: number;
  cpuMsPerCheck: number;
  checksPerSecond: number;
  latenessP99Ms: number;
  duplicates: number;
  /** The serve process's RSS over the window, MiB. */
  rssAvgMib: number;
  rssMaxMib: number;
  /** SQLite: database file growth per stored execution; PostgreSQL: database size growth per execution. */
  bytesPerExecution: number | null;
}

function runNode(root: string, script: string, scriptArgs: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...scriptArgs], {
      cwd: root,
      env: process.env,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`${script} exited with ${code}`))));
  });
}

/** The last JSON object a bench printed (the engine bench prints one over several lines, the idle bench one line). */
function lastJson(out: string): Record<string, unknown> {
  const start = out.lastIndexOf('\n{') + 1;
  return JSON.parse(out.slice(start)) as Record<string, unknown>;
}

async function measure(root: string, dialect: string, round: number): Promise<RunFigures> {
  const idle = lastJson(
    await runNode(root, 'bench/engine/idle.bench.ts', ['--dialect', dialect, '--seconds', args['idle-seconds']]),
  );
  const engine = lastJson(
    await runNode(root, 'bench/engine/engine.bench.ts', [
      '--dialect',
      dialect,
      '--processes',
      '1',
      '--monitors',
      args.monitors,
      '--interval',
      args.interval,
      '--minutes',
      args.minutes,
      ...(args['warm-seconds'] === undefined ? [] : ['--warm-seconds', args['warm-seconds']]),
    ]),
  );
  const lateness = engine.lateness_ms as { p99: number };
  const rss = (engine.rss_mib as Array<{ avg: number; max: number }>)[0]!;
  return {
    root,
    dialect,
    round,
    load1: +loadavg()[0]!.toFixed(2),
    idlePercent: idle.percent_of_a_core as number,
    cpuMsPerCheck: engine.cpu_ms_per_check as number,
    checksPerSecond: engine.checks_per_second as number,
    latenessP99Ms: lateness.p99,
    duplicates: engine.duplicate_slot_executions as number,
    rssAvgMib: rss.avg,
    rssMaxMib: rss.max,
    bytesPerExecution: (engine.bytes_per_execution ?? engine.postgres_database_growth_bytes_per_execution ?? null) as
      number | null,
  };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

const runs: RunFigures[] = [];
for (let round = 1; round <= Number(args.rounds); round++) {
  const order = round % 2 ? roots : [...roots].reverse();
  for (const dialect of dialects)
    for (const root of order) {
      const figures = await measure(root, dialect, round);
      runs.push(figures);
      process.stdout.write(`${JSON.stringify(figures)}\n`);
    }
}
const summary = roots.flatMap((root) =>
  dialects.map((dialect) => {
    const mine = runs.filter((r) => r.root === root && r.dialect === dialect);
    return {
      root,
      dialect,
      runs: mine.length,
      idle_percent_median: median(mine.map((r) => r.idlePercent)),
      cpu_ms_per_check_median: median(mine.map((r) => r.cpuMsPerCheck)),
      lateness_p99_ms_median: median(mine.map((r) => r.latenessP99Ms)),
      rss_avg_mib_median: median(mine.map((r) => r.rssAvgMib)),
      rss_max_mib_max: Math.max(...mine.map((r) => r.rssMaxMib)),
      idle_percent: mine.map((r) => r.idlePercent),
      cpu_ms_per_check: mine.map((r) => r.cpuMsPerCheck),
      lateness_p99_ms: mine.map((r) => r.latenessP99Ms),
      duplicates: mine.reduce((a, r) => a + r.duplicates, 0),
    };
  }),
);
process.stdout.write(
  `${JSON.stringify(
    {
      machine: `${cpus().length} × ${cpus()[0]?.model ?? '?'}`,
      node: process.version,
      date: new Date().toISOString(),
      load_average_at_end: loadavg().map((x) => +x.toFixed(2)),
      summary,
    },
    null,
    2,
  )}\n`,
);
