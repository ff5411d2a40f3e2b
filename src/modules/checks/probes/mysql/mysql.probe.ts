/**
 * MySQL / MariaDB probe: one fresh connection to the vetted address, TLS as `config.tls_mode` says (the server offers
 * it inside the handshake: `require` and `verify` refuse a server that does not), the login with
 * `username`/`password`/`database`, then the optional `query`, whose first column of the first row (as the server's
 * text) must equal `expected_value` when one is set. Phases: connect_ms, tls_ms, and auth_ms/query_ms in the details.
 */
import type { Socket } from 'node:net';
import mysql from 'mysql2';
import type { Observation, Probe, ProbeContext, ProbeTarget } from '../probe.contract.ts';
import { classifyError, round } from '../probe.net.ts';
import {
  closeSoon,
  databaseSettings,
  judgeAnswer,
  openDatabaseConnection,
  phaseError,
  since,
  type DatabasePhase,
  type DatabaseSettings,
  type PhaseTimes,
} from '../probe.database.ts';
import { runProbeWithin } from '../probe.run.ts';
import { defaultCaCertificates } from '../secure-context.cache.ts';

export const MYSQL_DEFAULT_PORT = 3306;

/**
 * Server errors that refuse the login: access denied (1044, 1045, 1698), unknown database (1049), host not allowed
 * (1130), an authentication method the client cannot answer (1251), password expired (1820, 1862).
 */
const AUTH_ERRNOS = new Set([1044, 1045, 1049, 1130, 1251, 1698, 1820, 1862]);

const isAuthError = (err: unknown): boolean => AUTH_ERRNOS.has((err as { errno?: number }).errno ?? 0);
/** An ERR packet of the server carries its SQLSTATE. */
const isServerError = (err: unknown): boolean => typeof (err as { sqlState?: unknown }).sqlState === 'string';

type SslOptions = { rejectUnauthorized: boolean; verifyIdentity: boolean; ca?: string[] };

/** Every value as the text the server sent (null stays null). */
const asText: mysql.TypeCast = (field) => field.string();

interface MysqlInternals {
  startTLS(onSecure: (err?: Error & { code?: string }) => void): void;
}

export function createMysqlProbe(): Probe {
  // mysql2 builds a TLS context per ssl object it is given (and keeps it): the same object for the same trust, so a
  // monitor with its own CA does not parse every root certificate at each check.
  const sslObjects = new Map<string, SslOptions>();
  function sslOf(s: DatabaseSettings, ctxCa: string | undefined): SslOptions | undefined {
    if (s.tlsMode === 'disable') return undefined;
    if (s.tlsMode === 'require') return { rejectUnauthorized: false, verifyIdentity: false };
    const extra = [ctxCa, s.caCertificate].filter((c): c is string => typeof c === 'string' && c.trim() !== '');
    const key = extra.join('\n');
    let ssl = sslObjects.get(key);
    if (!ssl) {
      ssl = {
        rejectUnauthorized: true,
        verifyIdentity: true,
        ...(extra.length > 0 && { ca: [...defaultCaCertificates(), ...extra] }),
      };
      if (sslObjects.size >= 32) sslObjects.delete(sslObjects.keys().next().value!);
      sslObjects.set(key, ssl);
    }
    return ssl;
  }

  return function mysqlProbe(target: ProbeTarget, ctx: ProbeContext): Promise<Observation> {
    const s = databaseSettings(target);
    const phases: PhaseTimes = { auth_ms: null, query_ms: null };
    let phase: DatabasePhase = 'connect';
    let connection: mysql.Connection | undefined;
    let socket: Socket | undefined;
    /** The TLS failure as it was: mysql2 renames its code to HANDSHAKE_SSL_ERROR. */
    let tlsFailure: Error | null = null;
    let loggedIn = false;
    const timeoutMessage = `no answer from MySQL within ${s.timeoutMs} ms`;
    return runProbeWithin(ctx, { timeoutMs: s.timeoutMs, timeoutMessage }, async (run) => {
      try {
        const opened = await openDatabaseConnection(run, ctx, target.target, MYSQL_DEFAULT_PORT);
        const { host, port, remote_address } = opened;
        const pinned = opened.socket;
        socket = pinned;
        const tLogin = performance.now();
        phase = 'auth';
        const ssl = sslOf(s, ctx.tlsCa);
        // The host is the name (TLS SNI and certificate name): the stream is connected to the vetted address.
        const conn = mysql.createConnection({
          stream: pinned,
          host,
          port,
          user: s.username ?? 'root',
          password: s.password ?? '',
          ...(s.database !== null && { database: s.database }),
          connectTimeout: s.timeoutMs,
          ...(ssl && { ssl }),
        });
        connection = conn;
        conn.on('error', () => undefined); // a late error after the check: the awaits report the ones that count
        if (ssl) {
          // The one place mysql2 upgrades the socket: timed here (tls_ms), and its error kept as it was.
          const internals = conn as unknown as MysqlInternals;
          const startTLS = internals.startTLS.bind(conn);
          internals.startTLS = (onSecure) => {
            const tTls = performance.now();
            phase = 'tls';
            startTLS((err) => {
              run.timings.tls_ms = since(tTls);
              if (err) tlsFailure = Object.assign(new Error(err.message), { code: err.code });
              else phase = 'auth';
              onSecure(err);
            });
          };
        }
        const server_version = await run.race(
          new Promise<string | null>((resolve, reject) => {
            conn.once('connect', (handshake: { serverVersion?: string }) => resolve(handshake?.serverVersion ?? null));
            conn.once('error', reject);
          }),
        );
        phases.auth_ms = round(since(tLogin) - (run.timings.tls_ms ?? 0));
        loggedIn = true;
        let value: string | null = null;
        if (s.query !== null) {
          phase = 'query';
          const tQuery = performance.now();
          const rows = await run.race(
            new Promise<unknown[][]>((resolve, reject) => {
              conn.query<mysql.RowDataPacket[]>(
                { sql: s.query!, rowsAsArray: true, typeCast: asText, timeout: s.timeoutMs },
                (err, result) => (err ? reject(err) : resolve(Array.isArray(result) ? (result as unknown[][]) : [])),
              );
            }),
          );
          phases.query_ms = since(tQuery);
          const first = Array.isArray(rows[0]) ? rows[0][0] : undefined;
          value = typeof first === 'string' ? first : null; // every value arrives as text (asText)
        }
        const details = { remote_address, server_version, ...phases };
        return run.observation(
          judgeAnswer(run, value, s.query === null ? null : s.expectedValue, s.assertions, details),
        );
      } catch (err) {
        run.partial.details = { ...run.partial.details, ...phases };
        if (run.abortReason) throw run.abortReason;
        let error = phaseError(err, phase, isServerError, isAuthError);
        if (tlsFailure !== null) {
          const classified = classifyError(tlsFailure);
          error =
            classified.code === 'protocol_error' ? { code: 'tls_invalid', message: classified.message } : classified;
        } else if ((err as { code?: string }).code === 'HANDSHAKE_NO_SSL_SUPPORT')
          error = { code: 'tls_invalid', message: `the server does not offer TLS (config.tls_mode ${s.tlsMode})` };
        return run.observation({ error, details: run.partial.details });
      } finally {
        if (connection && loggedIn && !run.abortReason && socket && !socket.destroyed) {
          // COM_QUIT, then close once it is written (a hung server does not hold the socket past the grace).
          connection.end(() => undefined);
          closeSoon(socket);
        } else {
          connection?.destroy();
          socket?.destroy();
        }
      }
    });
  };
}
