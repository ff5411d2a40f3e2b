/**
 * PostgreSQL probe: one fresh connection to the vetted address, TLS as `config.tls_mode` says (`disable`; `require`:
 * encrypted, certificate not checked; `verify`: chain and host name checked, `ca_certificate` trusted besides the
 * process's roots), the login with `username`/`password`/`database`, then the optional `query`, whose first column
 * of the first row (as the server's text) must equal `expected_value` when one is set. Phases: connect_ms, tls_ms,
 * and auth_ms/query_ms in the details.
 */
import type { Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import pg from 'pg';
import type { Observation, Probe, ProbeContext, ProbeTarget } from '../probe.contract.ts';
import {
  closeSoon,
  databaseSettings,
  judgeAnswer,
  openDatabaseConnection,
  phaseError,
  since,
  type DatabasePhase,
  type PhaseTimes,
} from '../probe.database.ts';
import { runProbeWithin } from '../probe.run.ts';
import { createSecureContextCache, type SecureContextFor } from '../secure-context.cache.ts';

export const POSTGRES_DEFAULT_PORT = 5432;

/** Every value as the text the server sent: the expected value is compared with what psql would print. */
const TEXT_TYPES = { getTypeParser: () => (value: string) => value };

/** SQLSTATE class 28 (invalid authorization) and 3D000 (no such database): the login was refused. */
function isAuthError(err: unknown): boolean {
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' && (code.startsWith('28') || code === '3D000');
}

/** An ErrorResponse of the server carries a five-character SQLSTATE. */
function isServerError(err: unknown): boolean {
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code);
}

export function createPostgresProbe(secureContextFor: SecureContextFor = createSecureContextCache()): Probe {
  return function postgresProbe(target: ProbeTarget, ctx: ProbeContext): Promise<Observation> {
    const s = databaseSettings(target);
    const phases: PhaseTimes = { auth_ms: null, query_ms: null };
    let phase: DatabasePhase = 'connect';
    let client: pg.Client | undefined;
    let socket: Socket | undefined;
    let loggedIn = false;
    const timeoutMessage = `no answer from PostgreSQL within ${s.timeoutMs} ms`;
    return runProbeWithin(ctx, { timeoutMs: s.timeoutMs, timeoutMessage }, async (run) => {
      try {
        const opened = await openDatabaseConnection(run, ctx, target.target, POSTGRES_DEFAULT_PORT);
        const { host, port, remote_address } = opened;
        const pinned = opened.socket;
        socket = pinned;
        // pg calls connect() on its stream: this one is connected already (to the vetted address), so it only
        // says so. The host given to pg is the name, used for TLS (SNI, certificate name) and nothing else.
        pinned.connect = function connected(this: Socket) {
          process.nextTick(() => this.emit('connect'));
          return this;
        } as Socket['connect'];
        const verify = s.tlsMode === 'verify';
        // Every setting pg would otherwise take from the process's environment (PGPASSWORD, PGUSER, PGOPTIONS …,
        // or ~/.pgpass) is given: a monitor never sends the server's own credentials to its target. The password
        // is a function for that reason (an empty string would make pg look elsewhere).
        client = new pg.Client({
          stream: () => pinned,
          host,
          port,
          user: s.username ?? 'postgres',
          password: () => s.password ?? '',
          database: s.database ?? s.username ?? 'postgres',
          application_name: 'tocsin',
          client_encoding: 'UTF8',
          // read-only: a monitor's query never needs to write, and a mistaken one must not
          options: `-c statement_timeout=${s.timeoutMs} -c default_transaction_read_only=on`,
          ssl:
            s.tlsMode === 'disable'
              ? false
              : {
                  // pg names the server (SNI, certificate) by the host unless it is an IP (RFC 6066)
                  rejectUnauthorized: verify,
                  ...(verify && { secureContext: secureContextFor([ctx.tlsCa, s.caCertificate]) }),
                },
        } as pg.ClientConfig);
        client.on('error', () => undefined); // a late socket error after the check: reported by the awaits
        const connection = (client as unknown as { connection: PgConnection }).connection;
        let server_version: string | null = null;
        connection.on('parameterStatus', (msg: { parameterName: string; parameterValue: string }) => {
          if (msg.parameterName === 'server_version') server_version = msg.parameterValue;
        });
        let tAuth = performance.now();
        phase = s.tlsMode === 'disable' ? 'auth' : 'tls';
        connection.once('sslconnect', () => {
          const tls = connection.stream as TLSSocket;
          tls.once('secureConnect', () => {
            run.timings.tls_ms = since(tAuth);
            tAuth = performance.now();
            phase = 'auth';
          });
        });
        await run.race(client.connect());
        phases.auth_ms = since(tAuth);
        loggedIn = true;
        let value: string | null = null;
        if (s.query !== null) {
          phase = 'query';
          const tQuery = performance.now();
          const result = await run.race(
            client.query<unknown[]>({ text: s.query, rowMode: 'array', types: TEXT_TYPES }),
          );
          phases.query_ms = since(tQuery);
          const first = result.rows[0]?.[0];
          value = typeof first === 'string' ? first : null; // every value arrives as text (TEXT_TYPES)
        }
        const details = { remote_address, server_version, ...phases };
        return run.observation(
          judgeAnswer(run, value, s.query === null ? null : s.expectedValue, s.assertions, details),
        );
      } catch (err) {
        run.partial.details = { ...run.partial.details, ...phases };
        if (run.abortReason) throw run.abortReason;
        const error =
          phase === 'auth' && s.password === null && !isServerError(err) && /password|SASL/i.test(String(err))
            ? { code: 'auth_failed' as const, message: `the server asks for a password; config.password is not set` }
            : phaseError(err, phase, isServerError, isAuthError);
        return run.observation({ error, details: run.partial.details });
      } finally {
        if (client && loggedIn && !run.abortReason && socket && !socket.destroyed) {
          // Terminate, then close once it is written (a hung server does not hold the socket past the grace).
          client.end().catch(() => undefined);
          closeSoon(socket);
        } else socket?.destroy();
      }
    });
  };
}

interface PgConnection {
  stream: unknown;
  on(event: string, listener: (...args: never[]) => void): unknown;
  once(event: string, listener: () => void): unknown;
}
