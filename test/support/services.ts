import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** True when `command` runs on this machine (found on the PATH and answers `--version` / `-v`). */
function onPath(command: string, versionFlag = '--version'): boolean {
  const run = spawnSync(command, [versionFlag], { stdio: 'ignore' });
  return run.error === undefined;
}

/**
 * Which external services and tools the test run uses. PostgreSQL and Redis suites run when their URL is set;
 * Chromium (browser suite), python3 (docs' Python webhook example, CSV read back), poppler's pdftotext/pdffonts/
 * pdfinfo (report PDFs) and promtool (metrics lint) when installed. With TOCSIN_TEST_REQUIRE_SERVICES=1, as in
 * `.ci/run`, every one of them is required: global setup fails the run when one is missing and no case skips
 * (`skipWithout`), so a CI run never passes on fewer tests than it claims.
 */
export const testServices = {
  postgresUrl: process.env.TOCSIN_TEST_POSTGRES_URL ?? null,
  redisUrl: process.env.TOCSIN_TEST_REDIS_URL ?? null,
  /** MySQL/MariaDB (mysql://root@127.0.0.1:3306) for the mysql probe's suite: a user that can create users. */
  mysqlUrl: process.env.TOCSIN_TEST_MYSQL_URL ?? null,
  /** Debian's Chromium (or TOCSIN_TEST_CHROMIUM) for the browser suite; required with the services. */
  chromiumPath: process.env.TOCSIN_TEST_CHROMIUM ?? (existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : null),
  /** Debian's PostgreSQL server binaries (initdb, postgres) for the clusters the database probes' tests start. */
  postgresBin: process.env.TOCSIN_TEST_POSTGRES_BIN ?? '/usr/lib/postgresql/15/bin',
  required: process.env.TOCSIN_TEST_REQUIRE_SERVICES === '1',
};

/** What a test can need; the Debian package that provides each tool is named in `.ci/run`. */
export type TestRequirement =
  | 'postgres'
  | 'redis'
  | 'chromium'
  | 'python3'
  | 'poppler'
  | 'promtool'
  | 'mysql'
  | 'redis-server'
  | 'postgres-server'
  | 'mariadb-server'
  | 'ping';

const probed = new Map<TestRequirement, boolean>();

/** Whether `what` is configured (a URL) or installed (a tool on the PATH); tools are probed once per file. */
export function testHas(what: TestRequirement): boolean {
  let has = probed.get(what);
  if (has === undefined) {
    has = probe(what);
    probed.set(what, has);
  }
  return has;
}

function probe(what: TestRequirement): boolean {
  switch (what) {
    case 'postgres':
      return testServices.postgresUrl !== null;
    case 'redis':
      return testServices.redisUrl !== null;
    case 'chromium':
      return testServices.chromiumPath !== null;
    case 'python3':
      return onPath('python3');
    case 'poppler':
      return onPath('pdftotext', '-v') && onPath('pdffonts', '-v') && onPath('pdfinfo', '-v');
    case 'promtool':
      return onPath('promtool');
    case 'mysql':
      return testServices.mysqlUrl !== null;
    case 'redis-server':
      return onPath('redis-server');
    case 'postgres-server':
      return existsSync(`${testServices.postgresBin}/initdb`) && existsSync(`${testServices.postgresBin}/postgres`);
    case 'mariadb-server':
      return onPath('mariadbd') && onPath('mariadb-install-db');
    case 'ping':
      return onPath('ping', '-V');
  }
}

/**
 * For `describe.skipIf(…)` / `it.skipIf(…)`: skip only where `what` is missing and the run does not require it.
 * Under TOCSIN_TEST_REQUIRE_SERVICES=1 this is always false: the case runs and fails where `what` is missing.
 */
export function skipWithout(what: TestRequirement): boolean {
  return !testServices.required && !testHas(what);
}

/** How to get `what`, for the message of a run that requires it. */
export const TEST_REQUIREMENT_HINT: Record<TestRequirement, string> = {
  postgres: 'set TOCSIN_TEST_POSTGRES_URL',
  redis: 'set TOCSIN_TEST_REDIS_URL',
  chromium: 'apt-get install chromium, or set TOCSIN_TEST_CHROMIUM',
  python3: 'apt-get install python3',
  poppler: 'apt-get install poppler-utils (pdftotext, pdffonts, pdfinfo)',
  promtool: 'apt-get install prometheus (promtool)',
  mysql: 'set TOCSIN_TEST_MYSQL_URL (apt-get install mariadb-server)',
  'redis-server': 'apt-get install redis-server (a second server with a password or TLS is started by the tests)',
  'postgres-server':
    'apt-get install postgresql (initdb: a cluster with TLS and passwords is started by the tests), or set TOCSIN_TEST_POSTGRES_BIN',
  'mariadb-server': 'apt-get install mariadb-server (a server with TLS and passwords is started by the tests)',
  ping: 'apt-get install iputils-ping (the icmp probe runs it)',
};
