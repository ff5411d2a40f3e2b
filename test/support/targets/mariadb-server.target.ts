/**
 * A MariaDB server of a test's own (Debian's mariadb-install-db and mariadbd) on a free port of 127.0.0.1, in a
 * temporary data directory, with TLS (ssl-cert/ssl-key/ssl-ca) and two users with passwords: one that may log in with
 * or without TLS, one that must use TLS (REQUIRE SSL). root has no password and logs in on a Unix socket in the
 * directory, for the test's own setup. Small (8 MB buffer pool, 20 connections): the machine is shared.
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import mysql from 'mysql2/promise';
import { testHas } from '../services.ts';
import type { Pem } from './certificates.ts';
import {
  ownedBy,
  removeDirectory,
  runAsFor,
  runSetup,
  serverDirectory,
  startDeadline,
  startServerProcess,
  waitUntilReady,
  type ServerProcess,
} from './database-server.process.ts';
import { closedPort } from './tcp.target.ts';

export interface MariadbServerTarget {
  target: string;
  port: number;
  /** May log in with or without TLS. */
  user: string;
  /** Must log in over TLS (REQUIRE SSL). */
  tlsUser: string;
  /** The password of both users. */
  password: string;
  startedIn: { install_ms: number; start_ms: number };
  /** Runs SQL as root (Unix socket). */
  admin(sql: string): Promise<unknown>;
  /** Serves another certificate (same CA file) to the connections made after it returns (`FLUSH SSL`). */
  replaceCertificate(tls: Pem): Promise<void>;
  close(): Promise<void>;
}

/** Settings of both mariadb-install-db and mariadbd: a small server of the test's alone (no my.cnf read). */
const SMALL = ['--innodb-buffer-pool-size=8M', '--innodb-log-file-size=4M', '--max-connections=20'];

export async function startMariadbServer(options: { tls: Pem; ca: Pem }): Promise<MariadbServerTarget> {
  if (!testHas('mariadb-server'))
    throw new Error('mariadb-install-db or mariadbd is missing: apt-get install mariadb-server');
  const runAs = runAsFor('mysql');
  const dir = serverDirectory('tocsin-mariadb-', runAs);
  const data = join(dir, 'data');
  const user = runAs ? ['--user=mysql'] : [];
  let server: ServerProcess | undefined;
  try {
    const t0 = performance.now();
    const deadline = startDeadline();
    runSetup(
      'mariadb-install-db',
      [
        '--no-defaults',
        `--datadir=${data}`,
        ...user,
        '--auth-root-authentication-method=normal',
        '--skip-test-db',
      ].concat(SMALL),
      runAs,
      deadline,
    );
    const install_ms = Math.round(performance.now() - t0);
    const file = (name: string, content: string) => {
      const path = join(dir, name);
      writeFileSync(path, content, { mode: 0o600 });
      return ownedBy(path, runAs);
    };
    const port = await closedPort();
    const socketPath = join(dir, 'mysqld.sock');
    const log = join(dir, 'mariadbd.log');
    const args = [
      '--no-defaults',
      `--datadir=${data}`,
      ...user,
      `--port=${port}`,
      '--bind-address=127.0.0.1',
      `--socket=${socketPath}`,
      `--pid-file=${join(dir, 'mariadbd.pid')}`,
      `--ssl-cert=${file('server-cert.pem', options.tls.cert)}`,
      `--ssl-key=${file('server-key.pem', options.tls.key)}`,
      `--ssl-ca=${file('ca.pem', options.ca.cert)}`,
      '--skip-name-resolve',
      '--skip-log-bin',
      '--innodb-flush-log-at-trx-commit=0',
      ...SMALL,
    ];
    const t1 = performance.now();
    server = startServerProcess('mariadbd', args, { runAs, logFile: log, signal: 'SIGTERM' });
    const admin = async (sql: string): Promise<unknown> => {
      const conn = await mysql.createConnection({ socketPath, user: 'root', password: '' });
      try {
        return (await conn.query(sql))[0];
      } finally {
        await conn.end();
      }
    };
    const started = server;
    await waitUntilReady('mariadbd', started, { logFile: log, deadline }, async () => void (await admin('SELECT 1')));
    const start_ms = Math.round(performance.now() - t1);
    const password = `pw-${randomBytes(9).toString('base64url')}`;
    const names = { user: 'tocsin_monitor', tlsUser: 'tocsin_monitor_tls' };
    await admin(`CREATE USER '${names.user}'@'127.0.0.1' IDENTIFIED BY '${password}'`);
    await admin(`CREATE USER '${names.tlsUser}'@'127.0.0.1' IDENTIFIED BY '${password}' REQUIRE SSL`);
    return {
      target: `127.0.0.1:${port}`,
      port,
      ...names,
      password,
      startedIn: { install_ms, start_ms },
      admin,
      replaceCertificate: async (next: Pem) => {
        writeFileSync(join(dir, 'server-cert.pem'), next.cert); // the files keep their owner and mode
        writeFileSync(join(dir, 'server-key.pem'), next.key);
        await admin('FLUSH SSL');
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
