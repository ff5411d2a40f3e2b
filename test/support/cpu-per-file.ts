/**
 * Where the suite's CPU goes, per test file (docs/BENCHMARKS.md, "Test suite and CI"). Loaded as a setup file only
 * when TOCSIN_TEST_CPU_LOG names a file (vitest.config.ts): each test file appends one JSON line with the CPU its
 * worker spent on it (user and system, this process) and the CPU of the child processes it started and reaped in that
 * time (`tocsin serve`, Chromium, pdftotext: /proc/self/stat cutime and cstime), and its wall time. PostgreSQL's CPU is
 * not in it (another process tree). CPU, unlike wall time, hardly moves with the machine's load.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { afterAll, expect } from 'vitest';

const TICK_MS = 10; // USER_HZ is 100 on Linux

/** CPU of the reaped children in ms (0 where /proc is not there). */
function childrenCpuMs(): number {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    // Fields after the command (which may hold spaces) in parentheses; cutime and cstime are fields 16 and 17.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[13]) + Number(fields[14])) * TICK_MS;
  } catch {
    return 0;
  }
}

const log = process.env.TOCSIN_TEST_CPU_LOG;
// Taken when the setup file runs, before the test file is imported (a first file pays for evaluating the app).
const cpu = process.cpuUsage();
const children = childrenCpuMs();
const started = performance.now();

afterAll(() => {
  if (!log) return;
  const used = process.cpuUsage(cpu);
  const file = expect.getState().testPath ?? 'unknown';
  const line = {
    file: file.replace(`${process.cwd()}/`, ''),
    user_ms: Math.round(used.user / 1000),
    system_ms: Math.round(used.system / 1000),
    children_ms: childrenCpuMs() - children,
    wall_ms: Math.round(performance.now() - started),
  };
  appendFileSync(log, `${JSON.stringify(line)}\n`);
});
