/**
 * Redis probe: one fresh connection to the vetted address (TLS from the first byte when `config.tls_mode` is
 * `require` or `verify`, as Redis serves it), `AUTH` when a password is set (with `username` for an ACL user),
 * `SELECT` of `database` when given, then `config.query` (a command, e.g. `GET health:flag`; `PING` when none):
 * its reply as text must equal `expected_value` when one is set. Phases: connect_ms, tls_ms, and auth_ms/query_ms in
 * the details. ioredis speaks the protocol over the socket opened here (its Connector hook), never connecting itself.
 */
import type { Socket } from 'node:net';
import { isIP } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { AbstractConnector, Redis, type RedisOptions } from 'ioredis';
import { connectTlsTo, type VettedHost } from '../../../../platform/net/index.ts';
import type { Observation, Probe, ProbeContext, ProbeTarget } from '../probe.contract.ts';
import { ProbeFailure, round } from '../probe.net.ts';
import {
  closeSoon,
  connectPinned,
  databaseSettings,
  judgeAnswer,
  recordRemoteAddress,
  resolveTarget,
  since,
  type DatabasePhase,
  type PhaseTimes,
} from '../probe.database.ts';
import { runProbeWithin, type ProbeRun } from '../probe.run.ts';
import { createSecureContextCache, type SecureContextFor } from '../secure-context.cache.ts';

export const REDIS_DEFAULT_PORT = 6379;

/** The words of a command line: whitespace separates them, double quotes keep spaces (`SET k "a b"`). */
export function commandWords(line: string): string[] {
  const words: string[] = [];
  for (const m of line.matchAll(/"((?:[^"\\]|\\.)*)"|(\S+)/g))
    words.push(m[1] !== undefined ? m[1].replace(/\\(.)/g, '$1') : m[2]!);
  return words;
}

/** A reply as text: a string or number as itself, an array by its first element, nil as null. */
function replyText(reply: unknown): string | null {
  if (reply === null || reply === undefined) return null;
  if (Array.isArray(reply)) return reply.length === 0 ? null : replyText(reply[0]);
  if (Buffer.isBuffer(reply)) return reply.toString('utf8');
  if (typeof reply === 'string') return reply;
  if (typeof reply === 'number' || typeof reply === 'bigint' || typeof reply === 'boolean') return String(reply);
  return JSON.stringify(reply);
}

/** Replies that refuse the login: a wrong password or user, or a command sent without the password required. */
const AUTH_REPLY = /^(WRONGPASS|NOAUTH|NOPERM)\b|AUTH.*without any password configured|no password is set/i;

/** ioredis connects through its Connector: this one hands over the socket the probe opened to the vetted address. */
class PinnedConnector extends AbstractConnector {
  private readonly pinned: Socket | TLSSocket;
  constructor(options: { pinnedStream: Socket | TLSSocket }) {
    super(0);
    this.pinned = options.pinnedStream;
  }
  connect(): Promise<Socket | TLSSocket> {
    this.stream = this.pinned;
    return Promise.resolve(this.pinned);
  }
}

/** TCP then TLS to the vetted address, each timed (connect_ms, tls_ms). */
function connectTls(
  run: ProbeRun,
  vetted: VettedHost,
  host: string,
  port: number,
  verify: boolean,
  secureContext: ReturnType<SecureContextFor>,
): Promise<TLSSocket> {
  const t0 = performance.now();
  let tConnect = 0;
  return run.race(
    new Promise<TLSSocket>((resolve, reject) => {
      const socket = connectTlsTo(vetted, port, {
        servername: isIP(host) ? undefined : host,
        rejectUnauthorized: verify,
        secureContext,
      });
      run.onAbort(() => socket.destroy());
      socket.once('connect', () => {
        tConnect = performance.now();
        run.timings.connect_ms = round(tConnect - t0);
      });
      socket.once('secureConnect', () => {
        run.timings.tls_ms = round(performance.now() - (tConnect || t0));
        resolve(socket);
      });
      socket.once('error', (err: Error) => {
        socket.destroy();
        reject(err);
      });
    }),
  );
}

export function createRedisProbe(secureContextFor: SecureContextFor = createSecureContextCache()): Probe {
  return function redisProbe(target: ProbeTarget, ctx: ProbeContext): Promise<Observation> {
    const s = databaseSettings(target);
    const phases: PhaseTimes = { auth_ms: null, query_ms: null };
    let phase: DatabasePhase = 'connect';
    let redis: Redis | undefined;
    let socket: Socket | TLSSocket | undefined;
    let loggedIn = false;
    const timeoutMessage = `no answer from Redis within ${s.timeoutMs} ms`;
    return runProbeWithin(ctx, { timeoutMs: s.timeoutMs, timeoutMessage }, async (run) => {
      try {
        const { host, port, vetted } = await resolveTarget(run, ctx, target.target, REDIS_DEFAULT_PORT);
        if (s.tlsMode === 'disable') socket = await connectPinned(run, vetted, port);
        else {
          phase = 'tls';
          const verify = s.tlsMode === 'verify';
          const secureContext = verify ? secureContextFor([ctx.tlsCa, s.caCertificate]) : undefined;
          socket = await connectTls(run, vetted, host, port, verify, secureContext);
        }
        const remote_address = recordRemoteAddress(run, socket);
        phase = 'auth';
        const client = new Redis({
          Connector: PinnedConnector,
          pinnedStream: socket,
          lazyConnect: true,
          enableReadyCheck: false,
          enableOfflineQueue: true,
          maxRetriesPerRequest: 0,
          retryStrategy: () => null,
          reconnectOnError: () => false,
          autoResubscribe: false,
          disableClientInfo: true,
          // RESP2: no HELLO before AUTH (a server with a password refuses it, and servers before 6 do not know it)
          protocol: 2,
        } as RedisOptions & { pinnedStream: Socket | TLSSocket });
        redis = client;
        client.on('error', () => undefined); // reported by the awaited commands
        await run.race(client.connect());
        const tAuth = performance.now();
        if (s.password !== null)
          await run.race(client.call('AUTH', ...(s.username !== null ? [s.username] : []), s.password));
        if (s.database !== null) await run.race(client.call('SELECT', s.database));
        if (s.password !== null || s.database !== null) phases.auth_ms = since(tAuth);
        loggedIn = true;
        phase = 'query';
        const words = commandWords(s.query ?? 'PING');
        if (words.length === 0) throw new ProbeFailure('query_error', 'config.query holds no command');
        const tQuery = performance.now();
        const reply = await run.race(client.call(words[0]!, ...words.slice(1)));
        phases.query_ms = since(tQuery);
        const details = { remote_address, server_version: null, ...phases };
        return run.observation(judgeAnswer(run, replyText(reply), s.expectedValue, s.assertions, details));
      } catch (err) {
        run.partial.details = { ...run.partial.details, ...phases };
        if (run.abortReason) throw run.abortReason;
        if (err instanceof ProbeFailure) throw err;
        const message = err instanceof Error ? err.message : String(err);
        // A reply error is the server's answer (ioredis' ReplyError); anything else is the network's, judged as usual.
        if ((err as Error).name === 'ReplyError') {
          const code = AUTH_REPLY.test(message) ? 'auth_failed' : phase === 'query' ? 'query_error' : 'auth_failed';
          return run.observation({ error: { code, message }, details: run.partial.details });
        }
        throw err;
      } finally {
        if (redis && loggedIn && !run.abortReason && socket && !socket.destroyed) {
          // QUIT, then close once it is written (a hung server does not hold the socket past the grace).
          redis.quit().catch(() => undefined);
          closeSoon(socket);
        } else {
          redis?.disconnect();
          socket?.destroy();
        }
      }
    });
  };
}
