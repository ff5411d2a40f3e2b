/**
 * A PostgreSQL cluster of a test's own (Debian's initdb and postgres): TLS on (ssl=on, with the given certificate),
 * password logins (scram-sha-256) over TCP on a free port of 127.0.0.1, and a superuser without password on a Unix
 * socket in its temporary directory for the test's own setup. Small (shared_buffers 8 MB, 20 connections, no fsync):
 * the machine is shared.
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { testHas, testServices } from '../services.ts';
import type { Pem } from './certificates.ts';
import {
  ownedBy,
  removeDirectory,
  runAsFor,
  runSetup,
  serverDirectory,
  startDeadline,
  startServerProcess,
  type ServerProcess,
  waitUntilReady,
} from './database-server.process.ts';
import { closedPort } from './tcp.target.ts';

const POSTGRES_BIN = testServices.postgresBin;

export interface PostgresServerTarget {
  target: string;
  port: number;
  /** A login role with a password (scram-sha-256), allowed with and without TLS. */
  user: string;
  password: string;
  /** initdb, and the server's start until it answered (ms). */
  startedIn: { initdb_ms: number; start_ms: number };
  /** Runs SQL as the superuser (Unix socket); the rows of the result. */
  admin<R extends Record<string, unknown>>(sql: string): Promise<R[]>;
  /** Serves another certificate from now on (files replaced, configuration reloaded: new connections, soon after). */
  replaceCertificate(tls: Pem): Promise<void>;
  close(): Promise<void>;
}

const ADMIN = 'tocsin_admin';

export async function startPostgresServer(options: { tls: Pem }): Promise<PostgresServerTarget> {
  if (!testHas('postgres-server'))
    throw new Error(`${POSTGRES_BIN}/initdb is missing: apt-get install postgresql (or set TOCSIN_TEST_POSTGRES_BIN)`);
  const runAs = runAsFor('postgres');
  const dir = serverDirectory('tocsin-pg-', runAs);
  const data = join(dir, 'data');
  let server: ServerProcess | undefined;
  try {
    const t0 = performance.now();
    const deadline = startDeadline();
    runSetup(
      `${POSTGRES_BIN}/initdb`,
      ['-D', data, '-U', ADMIN, '-N', '-E', 'UTF8', '--locale=C.UTF-8'],
      runAs,
      deadline,
    );
    const initdb_ms = Math.round(performance.now() - t0);
    // Local (socket) logins trusted for the test's setup; every TCP login needs a password.
    writeFileSync(
      join(data, 'pg_hba.conf'),
      'local all all trust\nhost all all 127.0.0.1/32 scram-sha-256\nhost all all ::1/128 scram-sha-256\n',
    );
    const key = join(data, 'server.key');
    writeFileSync(key, options.tls.key, { mode: 0o600 });
    ownedBy(key, runAs);
    ownedBy(join(data, 'pg_hba.conf'), runAs);
    writeFileSync(join(data, 'server.crt'), options.tls.cert);
    ownedBy(join(data, 'server.crt'), runAs);
    const port = await closedPort();
    const log = join(dir, 'postgres.log');
    const settings = {
      listen_addresses: '127.0.0.1',
      port: String(port),
      unix_socket_directories: dir,
      ssl: 'on',
      ssl_cert_file: join(data, 'server.crt'),
      ssl_key_file: key,
      password_encryption: 'scram-sha-256',
      shared_buffers: '8MB',
      max_connections: '20',
      fsync: 'off',
      synchronous_commit: 'off',
      full_page_writes: 'off',
      logging_collector: 'off',
      log_destination: 'stderr',
    };
    const args = ['-D', data, ...Object.entries(settings).flatMap(([k, v]) => ['-c', `${k}=${v}`])];
    const t1 = performance.now();
    // SIGINT: PostgreSQL's fast shutdown
    server = startServerProcess(`${POSTGRES_BIN}/postgres`, args, { runAs, logFile: log, signal: 'SIGINT' });
    const admin = async <R extends Record<string, unknown>>(sql: string): Promise<R[]> => {
      const client = new pg.Client({ host: dir, port, user: ADMIN, database: 'postgres', password: () => '' });
      await client.connect();
      try {
        return (await client.query<R>(sql)).rows;
      } finally {
        await client.end();
      }
    };
    const started = server;
    await waitUntilReady('postgres', started, { logFile: log, deadline }, async () => void (await admin('SELECT 1')));
    const start_ms = Math.round(performance.now() - t1);
    const user = 'tocsin_monitor';
    const password = `pw-${randomBytes(9).toString('base64url')}`;
    await admin(`CREATE ROLE ${user} LOGIN PASSWORD '${password}'`);
    return {
      target: `127.0.0.1:${port}`,
      port,
      user,
      password,
      startedIn: { initdb_ms, start_ms },
      admin,
      replaceCertificate: async (next: Pem) => {
        writeFileSync(key, next.key); // the file keeps its owner and mode
        writeFileSync(join(data, 'server.crt'), next.cert);
        await admin('SELECT pg_reload_conf()');
      },
      close: async () => {
        await started.stop();
        removeDirectory(dir);
      },
    };
  } catch (err) {
    await server?.stop();
    removeDirectory(dir);
    throw err;
  }
}
