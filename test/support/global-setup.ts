import { createConnection } from 'node:net';
import { testServices } from './services.ts';
import { buildTemplates } from './templates.ts';

function reachable(url: string): Promise<boolean> {
  const u = new URL(url);
  return new Promise((resolve) => {
    const socket = createConnection({ host: u.hostname, port: Number(u.port) || 5432 });
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

async function requireServices(): Promise<void> {
  const missing: string[] = [];
  if (!testServices.postgresUrl) missing.push('TOCSIN_TEST_POSTGRES_URL is not set');
  else if (!(await reachable(testServices.postgresUrl)))
    missing.push(`PostgreSQL unreachable at ${testServices.postgresUrl}`);
  if (!testServices.redisUrl) missing.push('TOCSIN_TEST_REDIS_URL is not set');
  else if (!(await reachable(testServices.redisUrl))) missing.push(`Redis unreachable at ${testServices.redisUrl}`);
  if (!testServices.chromiumPath)
    missing.push('Chromium not found at /usr/bin/chromium (apt-get install chromium, or set TOCSIN_TEST_CHROMIUM)');
  if (missing.length > 0) throw new Error(`Required test services missing: ${missing.join('; ')}`);
}
