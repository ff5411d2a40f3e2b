/**
 * What the database probes (postgres, mysql, redis) share: their settings, the pinned TCP connection each check opens
 * (one fresh connection per check, never pooled: a check must see a login succeed or fail now, and a pooled
 * connection would hide a server that stopped accepting new ones), the phase a failure happened in, and the value
 * judgement.
 */
import type { Socket } from 'node:net';
import { connectTcpTo, type VettedHost } from '../../../platform/net/index.ts';
import { evaluateAssertions } from '../assertions/index.ts';
import type { ProbeContext, ProbeError, ProbeErrorCode, ProbeTarget } from './probe.contract.ts';
import { classifyError, num, parseHostPort, ProbeFailure, resolveHost, round } from './probe.net.ts';
import type { Outcome, ProbeRun } from './probe.run.ts';

export type TlsMode = 'disable' | 'require' | 'verify';

export interface DatabaseSettings {
  timeoutMs: number;
  tlsMode: TlsMode;
  /** The monitor's own CA (PEM), trusted besides the process's roots under `verify`. */
  caCertificate: string | null;
  username: string | null;
  password: string | null;
  database: string | null;
  /** postgres/mysql: SQL; redis: the command's words. */
  query: string | null;
  expectedValue: string | null;
  /** response_time and body (on the value as text) assertions. */
  assertions: readonly object[];
}

const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

export function databaseSettings(target: ProbeTarget): DatabaseSettings {
  const c = target.config;
  const mode = c.tls_mode === 'require' || c.tls_mode === 'verify' ? c.tls_mode : 'disable';
  return {
    timeoutMs: num(c.timeout_ms, 10_000),
    tlsMode: mode,
    caCertificate: text(c.ca_certificate),
    username: text(c.username),
    password: typeof c.password === 'string' ? c.password : null,
    database: text(c.database),
    query: text(c.query),
    expectedValue: typeof c.expected_value === 'string' ? c.expected_value : null,
    assertions: Array.isArray(c.assertions) ? (c.assertions as object[]) : [],
  };
}

/** The phases of a database check; a failure is judged by the phase it happened in. */
export type DatabasePhase = 'connect' | 'tls' | 'auth' | 'query';

/** Per-phase times a database check reports besides connect_ms/tls_ms (kept with the execution). */
export interface PhaseTimes {
  auth_ms: number | null;
  query_ms: number | null;
}

/** Opens the one TCP connection of a check to the vetted address; `connect_ms` is its handshake. */
export function connectPinned(run: ProbeRun, vetted: VettedHost, port: number): Promise<Socket> {
  const t0 = performance.now();
  return run.race(
    new Promise<Socket>((resolve, reject) => {
      const socket = connectTcpTo(vetted, port);
      socket.setNoDelay(true);
      run.onAbort(() => socket.destroy());
      socket.once('connect', () => {
        run.timings.connect_ms = round(performance.now() - t0);
        resolve(socket);
      });
      socket.once('error', reject);
    }),
  );
}

/** Where a database check connects: the name (for TLS: SNI and the certificate's name), the port, the vetted address. */
export interface ResolvedTarget {
  host: string;
  port: number;
  vetted: VettedHost;
}

/** Parses `host:port` (`defaultPort` when absent) and resolves and vets the host (dns_ms; private_target …). */
export async function resolveTarget(
  run: ProbeRun,
  ctx: ProbeContext,
  target: string,
  defaultPort: number,
): Promise<ResolvedTarget> {
  const { host, port } = parseHostPort(target, defaultPort);
  const vetted = await run.race(resolveHost(host, ctx, run.timings));
  return { host, port, vetted };
}

/** The peer's address, kept in the details a failed check reports too (a later phase failing still says where). */
export function recordRemoteAddress(run: ProbeRun, socket: Socket): string | null {
  const remote_address = socket.remoteAddress ?? null;
  run.partial.details = { remote_address };
  return remote_address;
}

export interface DatabaseConnection {
  host: string;
  port: number;
  /** Connected to the vetted address; the driver is given it as its stream. */
  socket: Socket;
  remote_address: string | null;
}

/** The prelude of a postgres or mysql check: the target resolved and vetted, the pinned connection opened. */
export async function openDatabaseConnection(
  run: ProbeRun,
  ctx: ProbeContext,
  target: string,
  defaultPort: number,
): Promise<DatabaseConnection> {
  const { host, port, vetted } = await resolveTarget(run, ctx, target, defaultPort);
  const socket = await connectPinned(run, vetted, port);
  return { host, port, socket, remote_address: recordRemoteAddress(run, socket) };
}

/**
 * Maps what a driver threw in `phase` to the observation's error: network and TLS failures keep their own codes
 * (connect_refused, timeout, tls_invalid …); a server error while logging in is `auth_failed`, while querying
 * `query_error`. `authCodes` are the driver's codes that mean a refused login whatever the phase.
 */
export function phaseError(
  err: unknown,
  phase: DatabasePhase,
  isServerError: (err: unknown) => boolean,
  isAuthError: (err: unknown) => boolean,
): ProbeError {
  if (err instanceof ProbeFailure) return { code: err.code, message: err.message };
  const classified = classifyError(err);
  if (classified.code !== 'protocol_error') return classified;
  const message = classified.message;
  if (isAuthError(err)) return { code: 'auth_failed', message };
  let code: ProbeErrorCode = 'protocol_error';
  if (phase === 'tls') code = 'tls_invalid';
  else if (phase === 'query' && isServerError(err)) code = 'query_error';
  else if (phase === 'auth' && isServerError(err)) code = 'auth_failed';
  return { code, message };
}

const VALUE_SHOWN = 200;

/** The value as an error message may show it: quoted, at most 200 characters. */
export function shownValue(value: string | null): string {
  if (value === null) return 'no value';
  return JSON.stringify(value.length > VALUE_SHOWN ? `${value.slice(0, VALUE_SHOWN)}…` : value);
}

/** `unexpected_value` when an expected value is set and the first value returned differs (compared as text). */
export function judgeValue(value: string | null, expected: string | null): ProbeError | null {
  if (expected === null || value === expected) return null;
  return {
    code: 'unexpected_value',
    message: `expected ${shownValue(expected)}, got ${shownValue(value)}`,
  };
}

/**
 * The outcome of a check that got its answer: `unexpected_value` first, then the assertions (`response_time` on the
 * check's duration, `body` on the value as text).
 */
export function judgeAnswer(
  run: ProbeRun,
  value: string | null,
  expected: string | null,
  assertions: readonly object[],
  details: Record<string, unknown>,
): Outcome {
  const duration_ms = run.elapsed();
  const evaluated =
    assertions.length === 0
      ? []
      : evaluateAssertions(assertions, { status: 0, headers: {}, body: value ?? '', duration_ms });
  const failed = evaluated.filter((a) => !a.passed).length;
  const error =
    judgeValue(value, expected) ??
    (failed === 0
      ? null
      : { code: 'assertion_failed' as const, message: `${failed} of ${evaluated.length} assertions failed` });
  return { error, assertions: evaluated as Outcome['assertions'], details, duration_ms };
}

/** Milliseconds since `t0` (performance.now()). */
export function since(t0: number): number {
  return round(performance.now() - t0);
}

/** Closes a socket after what was written to it is flushed; destroys it if it has not closed within `graceMs`. */
export function closeSoon(socket: { destroy(): void; once(e: 'close', f: () => void): unknown }, graceMs = 1000): void {
  const timer = setTimeout(() => socket.destroy(), graceMs);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
}
