/**
 * Child process of plan-limits.processes.test.ts: the real services on the database named by the environment
 * create PLAN_LIMITS_ATTEMPTS monitors at once with the key PLAN_LIMITS_API_KEY, once told to start on stdin
 * (so that both processes start together), and print the outcome of each as one JSON line.
 */
import { loadConfig } from '../../src/config/index.ts';
import { createTocsin } from '../../src/main.ts';
import { createLogger } from '../../src/platform/logger.ts';

const tocsin = await createTocsin(loadConfig({ env: process.env, isTty: false }), {
  logger: createLogger({ level: 'error', pretty: false }),
  background: false,
  migrate: false,
});
const actor = (await tocsin.services.auth.authenticate(process.env.PLAN_LIMITS_API_KEY!))!;
const ctx = { actor, db: tocsin.database, clock: tocsin.clock };
process.stdout.write('ready\n');
await new Promise((resolve) => process.stdin.once('data', resolve));
const results = await Promise.allSettled(
  Array.from({ length: Number(process.env.PLAN_LIMITS_ATTEMPTS) }, (_, i) =>
    tocsin.services.monitors.create(ctx, { target: `https://p${process.pid}-${i}.example.com` }),
  ),
);
process.stdout.write(
  `${JSON.stringify(results.map((r) => (r.status === 'fulfilled' ? 'stored' : ((r.reason as { code?: string }).code ?? String(r.reason)))))}\n`,
);
await tocsin.close();
