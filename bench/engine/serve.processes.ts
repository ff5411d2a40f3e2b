/**
 * The engine benchmark's `--mode serve`: real `tocsin serve` processes (every role: HTTP, scheduler, in-process
 * runner, alert dispatcher, retention, report scheduler), measured from outside through /proc — CPU as
 * utime + stime ticks, RSS as VmRSS sampled every second — so nothing in the measured process is the benchmark's.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** USER_HZ: Linux reports process times in 1/100 s on every architecture Node supports. */
const TICKS_PER_SECOND = 100;

export interface ServeProcessFigures {
  pid: number;
  port: number;
  cpuMs: number;
  rssAvgBytes: number;
  rssMaxBytes: number;
}

export interface ServeRun {
  windowStart: number;
  windowEnd: number;
  processes: ServeProcessFigures[];
}

function cpuTicks(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may contain spaces) start at field 3; utime and stime are 14 and 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

function rssBytes(pid: number): number {
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) * 1024 : 0;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

async function waitReady(port: number, child: ChildProcess, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (child.exitCode !== null) throw new Error(`tocsin serve exited with ${child.exitCode} before it was ready`);
    try {
      const response = await fetch(`http://127.0.0.1:${port}/readyz`);
      if (response.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`tocsin serve on :${port} not ready within ${timeoutMs} ms`);
}

function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

/**
 * Starts `count` serve processes with `env`, waits until all are ready plus `warmMs`, measures `windowMs`,
 * then stops them with SIGTERM (a graceful stop: in-flight checks finish and their executions are stored).
 */
export async function runServeProcesses(options: {
  count: number;
  env: Record<string, string>;
  nodeFlags: string[];
  warmMs: number;
  windowMs: number;
}): Promise<ServeRun> {
  const bin = new URL('../../bin/tocsin.js', import.meta.url).pathname;
  const children: { child: ChildProcess; port: number }[] = [];
  try {
    for (let i = 0; i < options.count; i++) {
      const port = await freePort();
      const child = spawn(process.execPath, [...options.nodeFlags, bin, 'serve'], {
        env: { ...options.env, PORT: String(port), HOST: '127.0.0.1' },
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      children.push({ child, port });
    }
    await Promise.all(children.map(({ child, port }) => waitReady(port, child, 60_000)));
    await new Promise((r) => setTimeout(r, options.warmMs));

    const pids = children.map(({ child }) => child.pid!);
    const rss = pids.map(() => [] as number[]);
    const sample = () => pids.forEach((pid, i) => rss[i]!.push(rssBytes(pid)));
    const ticks0 = pids.map(cpuTicks);
    const windowStart = Date.now();
    sample();
    const sampler = setInterval(sample, 1000);
    await new Promise((r) => setTimeout(r, options.windowMs));
    const windowEnd = Date.now();
    const ticks1 = pids.map(cpuTicks);
    clearInterval(sampler);

    const processes = children.map(({ port }, i) => ({
      pid: pids[i]!,
      port,
      cpuMs: ((ticks1[i]! - ticks0[i]!) * 1000) / TICKS_PER_SECOND,
      rssAvgBytes: rss[i]!.reduce((a, b) => a + b, 0) / rss[i]!.length,
      rssMaxBytes: Math.max(...rss[i]!),
    }));
    for (const { child } of children) child.kill('SIGTERM');
    const codes = await Promise.all(children.map(({ child }) => exited(child)));
    if (codes.some((code) => code !== 0))
      throw new Error(`tocsin serve exit codes ${codes.join(', ')} (expected 0 after SIGTERM)`);
    return { windowStart, windowEnd, processes };
  } finally {
    for (const { child } of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
}
