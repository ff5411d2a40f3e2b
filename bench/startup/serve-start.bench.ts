/**
 * What a start of `tocsin serve` costs (the test suite starts about a hundred of them, every user one per restart):
 * wall time from spawn to the first 200 of /healthz, and the CPU (utime + stime from /proc) the process used by then;
 * and the CPU of `tocsin --help` (the CLI alone). The data directory is migrated by a first start that is not counted,
 * so what is measured is a restart on an existing database, as the tests' and users' restarts are. Node's compile
 * cache is warm after that first start too (bin/tocsin.js).
 *
 *   node bench/startup/serve-start.bench.ts [--rounds 5] [--root /path/to/other/tree ...]
 *
 * With --root the trees are measured in turns (this one first in odd rounds, the other first in even ones), so that
 * both see the same load; a tree needs its node_modules (a link is enough).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const TICK_MS = 10; // USER_HZ is 100 on Linux

const { values } = parseArgs({
  options: { rounds: { type: 'string', default: '5' }, root: { type: 'string', multiple: true, default: [] } },
});
const rounds = Number(values.rounds);
const roots = [resolve(new URL('../..', import.meta.url).pathname), ...values.root.map((r) => resolve(r))];

function cpuMsOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  await new Promise<void>((r) => server.close(() => r()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** One start of `tocsin serve` in `root` on `dataDir`: wall ms to /healthz and CPU ms by then. */
async function startOnce(root: string, dataDir: string): Promise<{ wallMs: number; cpuMs: number }> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, ['bin/tocsin.js', 'serve'], {
    cwd: root,
    env: { ...process.env, TOCSIN_DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`tocsin serve exited with ${child.exitCode}`);
      try {
        if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) break;
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 10));
    }
    return { wallMs: performance.now() - started, cpuMs: cpuMsOf(child.pid!) };
  } finally {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;
  }
}

/** CPU ms of the reaped children of this process (cutime + cstime). */
function reapedChildrenCpuMs(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[13]) + Number(fields[14])) * TICK_MS;
}

/** CPU ms of `tocsin --help`: the reaped children's CPU before and after it (nothing else of ours runs meanwhile). */
async function helpOnce(root: string): Promise<number> {
  const before = reapedChildrenCpuMs();
  const child = spawn(process.execPath, ['bin/tocsin.js', '--help'], { cwd: root, stdio: 'ignore' });
  await new Promise((r) => child.once('exit', r));
  return reapedChildrenCpuMs() - before;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const figures = new Map(roots.map((r) => [r, { wall: [] as number[], cpu: [] as number[], help: [] as number[] }]));
const dirs = new Map(roots.map((r) => [r, mkdtempSync(join(tmpdir(), 'tocsin-start-bench-'))]));
try {
  for (const root of roots) await startOnce(root, dirs.get(root)!); // migrates, fills the compile cache
  for (let round = 1; round <= rounds; round++) {
    const order = round % 2 === 1 ? roots : [...roots].reverse();
    for (const root of order) {
      const load = loadavg()[0]!.toFixed(2);
      const { wallMs, cpuMs } = await startOnce(root, dirs.get(root)!);
      const help = await helpOnce(root);
      const f = figures.get(root)!;
      f.wall.push(wallMs);
      f.cpu.push(cpuMs);
      f.help.push(help);
      console.log(
        `round ${round} ${root}: serve ready ${wallMs.toFixed(0)} ms wall, ${cpuMs} ms CPU; --help ${help.toFixed(0)} ms CPU (load ${load})`,
      );
    }
  }
  for (const [root, f] of figures)
    console.log(
      `${root}: median serve ready ${median(f.wall).toFixed(0)} ms wall, ${median(f.cpu)} ms CPU; --help ${median(f.help).toFixed(0)} ms CPU (${rounds} rounds)`,
    );
} finally {
  for (const dir of dirs.values()) rmSync(dir, { recursive: true, force: true });
}
