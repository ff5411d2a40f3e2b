/**
 * What the PostgreSQL and MariaDB servers of the tests share: a temporary directory the server may write (owned by
 * the server's system user when the tests run as root, since neither server runs as root), the server process, a
 * bounded wait for it to answer, and its stop.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * How long making a server (initdb, mariadb-install-db) and starting it until it answers may take together: 3–6 s on
 * the 2-core machine (docs/BENCHMARKS.md), far more when it is loaded; under Vitest's 90 s hook timeout.
 */
export const SERVER_START_BOUND_MS = 80_000;

/** The deadline (performance.now()) of a server start begun now. */
export function startDeadline(): number {
  return performance.now() + SERVER_START_BOUND_MS;
}

const left = (deadline: number) => Math.max(1, Math.round(deadline - performance.now()));

/** The user and group a server process runs as: the system user (`postgres`, `mysql`) when the tests are root. */
export interface RunAs {
  uid: number;
  gid: number;
}

/** `null` when the tests do not run as root (the server then runs as the tests' user). */
export function runAsFor(systemUser: string): RunAs | null {
  if (process.getuid?.() !== 0) return null;
  const id = (flag: string) => spawnSync('id', [flag, systemUser], { encoding: 'utf8' });
  const uid = id('-u');
  const gid = id('-g');
  if (uid.status !== 0 || gid.status !== 0)
    throw new Error(`the tests run as root and there is no system user ${systemUser} to run the server as`);
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

/** A temporary directory the server's user owns. */
export function serverDirectory(prefix: string, runAs: RunAs | null): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  if (runAs) chownSync(dir, runAs.uid, runAs.gid);
  return dir;
}

/** Gives a file the tests wrote to the server's user (a server refuses a key file it does not own). */
export function ownedBy(path: string, runAs: RunAs | null): string {
  if (runAs) chownSync(path, runAs.uid, runAs.gid);
  return path;
}

/** Runs a setup command (initdb, mariadb-install-db) to its end; its output is in the error when it fails. */
export function runSetup(command: string, args: string[], runAs: RunAs | null, deadline: number): void {
  const run = spawnSync(command, args, { encoding: 'utf8', cwd: '/', timeout: left(deadline), ...runAs });
  if (run.error || run.status !== 0)
    throw new Error(
      `${command} failed (${run.error?.message ?? `exit ${run.status}`}): ${`${run.stdout}${run.stderr}`.slice(-2000)}`,
    );
}

export interface ServerProcess {
  child: ChildProcess;
  exited(): boolean;
  stop(): Promise<void>;
}

/**
 * Starts the server, its output appended to `logFile`; `stop` asks it to shut down (`signal`), kills it after 15 s,
 * and waits for its exit.
 */
export function startServerProcess(
  command: string,
  args: string[],
  options: { runAs: RunAs | null; logFile: string; signal: NodeJS.Signals },
): ServerProcess {
  const out = openSync(options.logFile, 'a');
  const child = spawn(command, args, { stdio: ['ignore', out, out], cwd: '/', ...options.runAs });
  closeSync(out);
  let exited = false;
  const gone = new Promise<void>((resolve) => {
    child.once('exit', () => {
      exited = true;
      resolve();
    });
    child.once('error', () => {
      exited = true;
      resolve();
    });
  });
  return {
    child,
    exited: () => exited,
    stop: async () => {
      if (exited) return;
      child.kill(options.signal);
      const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await gone;
      clearTimeout(killer);
    },
  };
}

/**
 * Waits until `ready` resolves (the server answers a query), until `deadline`; fails at once when the server exits,
 * with the end of its log.
 */
export async function waitUntilReady(
  name: string,
  server: ServerProcess,
  options: { logFile: string; deadline: number },
  ready: () => Promise<void>,
): Promise<void> {
  const { logFile, deadline } = options;
  let last: unknown = null;
  const log = () => {
    try {
      return readFileSync(logFile, 'utf8').slice(-2000);
    } catch {
      return '(no log)';
    }
  };
  while (performance.now() < deadline) {
    if (server.exited()) throw new Error(`${name} exited before it answered; its log: ${log()}`);
    try {
      await ready();
      return;
    } catch (err) {
      last = err;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  await server.stop();
  throw new Error(
    `${name} was not made and answering within ${SERVER_START_BOUND_MS / 1000} s (last: ${String(last)}); its log: ${log()}`,
  );
}

export function removeDirectory(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}
