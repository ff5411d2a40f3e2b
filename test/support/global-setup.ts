import { createConnection } from 'node:net';
import { TEST_REQUIREMENT_HINT, testHas, testServices, type TestRequirement } from './services.ts';
import { buildTemplates } from './templates.ts';

const DEFAULT_PORTS: Record<string, number> = { 'mysql:': 3306, 'redis:': 6379 };

function reachable(url: string): Promise<boolean> {
  const u = new URL(url);
  return new Promise((resolve) => {
    const socket = createConnection({ host: u.hostname, port: Number(u.port) || DEFAULT_PORTS[u.protocol] || 5432 });
    socket.setTimeout(2000);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

/** Checks the required services, then builds the run's migrated template databases; returns their teardown. */
export default async function setup(): Promise<() => Promise<void>> {
  if (testServices.required) await requireServices();
  return buildTemplates();
}

/**
 * With TOCSIN_TEST_REQUIRE_SERVICES=1 (CI), every service and tool a test can need must be there: the run fails here,
 * naming what is missing, instead of a suite skipping or failing case by case.
 */
async function requireServices(): Promise<void> {
  const missing: string[] = [];
  if (!testServices.postgresUrl) missing.push('TOCSIN_TEST_POSTGRES_URL is not set');
  else if (!(await reachable(testServices.postgresUrl)))
    missing.push(`PostgreSQL unreachable at ${testServices.postgresUrl}`);
  if (!testServices.redisUrl) missing.push('TOCSIN_TEST_REDIS_URL is not set');
  else if (!(await reachable(testServices.redisUrl))) missing.push(`Redis unreachable at ${testServices.redisUrl}`);
  if (!testServices.mysqlUrl) missing.push(`TOCSIN_TEST_MYSQL_URL is not set (${TEST_REQUIREMENT_HINT.mysql})`);
  else if (!(await reachable(testServices.mysqlUrl))) missing.push(`MySQL unreachable at ${testServices.mysqlUrl}`);
  const tools: TestRequirement[] = [
    'chromium',
    'python3',
    'poppler',
    'promtool',
    'redis-server',
    'postgres-server',
    'mariadb-server',
    'ping',
  ];
  for (const tool of tools) if (!testHas(tool)) missing.push(`${tool} missing (${TEST_REQUIREMENT_HINT[tool]})`);
  if (missing.length > 0) throw new Error(`Required test services missing: ${missing.join('; ')}`);
}
