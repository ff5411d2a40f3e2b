/**
 * Issue 30 item 7: CPU and wall time of some test files in two trees, interleaved (docs/BENCHMARKS.md, "Test suite
 * and CI"). Each round runs `npx vitest run <files>` in each tree (the order alternating from round to round: base
 * first, then head first, ...) with `TOCSIN_TEST_CPU_LOG` (test/support/cpu-per-file.ts: the Vitest worker's CPU, its
 * reaped children's — `tocsin serve`, Chromium, `tocsin admin` — and the wall time, per file), and prints one row per
 * file and run with the load average before and after it and whether the run passed.
 *
 *   node bench/ci/test-files.bench.ts --base /work/base-tree --head . [--rounds 3] test/a.test.ts test/b.test.ts
 *
 * Both trees need their node_modules and, for browser files, web/dist. The files run as `npm test` runs them (two
 * at a time when there are several).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const { values: args, positionals: files } = parseArgs({
  options: {
    base: { type: 'string' },
    head: { type: 'string', default: '.' },
    rounds: { type: 'string', default: '3' },
  },
  allowPositionals: true,
});
if (!args.base || files.length === 0) {
  process.stderr.write('usage: node bench/ci/test-files.bench.ts --base <tree> [--head <tree>] [--rounds n] <files>\n');
  process.exit(2);
}
const trees = { base: resolve(args.base), head: resolve(args.head) };
const logDir = mkdtempSync(join(tmpdir(), 'tocsin-bench-test-files-'));

interface Row {
  file: string;
  user_ms: number;
  system_ms: number;
  children_ms: number;
  wall_ms: number;
}

const load = () => loadavg()[0]!.toFixed(1);
const seconds = (ms: number) => (ms / 1000).toFixed(1);

/** Runs the files in one tree; resolves with their rows, the run's wall time and exit code. */
function run(tree: string, log: string): Promise<{ rows: Row[]; wallMs: number; code: number | null }> {
  const started = performance.now();
  return new Promise((done) => {
    const child = spawn('npx', ['vitest', 'run', ...files], {
      cwd: tree,
      env: { ...process.env, TOCSIN_TEST_CPU_LOG: log },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    child.on('exit', (code) => {
      const rows = existsSync(log)
        ? readFileSync(log, 'utf8')
            .split('\n')
            .filter(Boolean)
            .map((line) => JSON.parse(line) as Row)
        : [];
      done({ rows, wallMs: performance.now() - started, code });
    });
  });
}

process.stdout.write(
  '| round | tree | file | worker CPU s | children CPU s | CPU s | wall s | load before → after | run |\n',
);
process.stdout.write('| ---: | --- | --- | ---: | ---: | ---: | ---: | --- | --- |\n');
const rounds = Number(args.rounds);
for (let round = 1; round <= rounds; round++) {
  const order = round % 2 === 1 ? (['base', 'head'] as const) : (['head', 'base'] as const);
  for (const name of order) {
    const before = load();
    const at = new Date().toISOString().slice(11, 19);
    const { rows, wallMs, code } = await run(trees[name], join(logDir, `${name}-${round}.jsonl`));
    const after = load();
    for (const r of rows) {
      const worker = r.user_ms + r.system_ms;
      process.stdout.write(
        `| ${round} (${at}) | ${name} | ${r.file.replace(/^test\//, '')} | ${seconds(worker)} | ${seconds(r.children_ms)} | ${seconds(worker + r.children_ms)} | ${seconds(r.wall_ms)} | ${before} → ${after} | ${code === 0 ? 'passed' : `failed (${code})`}, ${seconds(wallMs)} s in all |\n`,
      );
    }
  }
}
