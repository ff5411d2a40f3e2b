/**
 * API-access overhead: auth + scope + per-key rate limit (+ idempotency on POST), memory vs Redis
 * limiter, against the unauthenticated /healthz, in one run on real ports (SQLite).
 *   node bench/api-access/api-access.bench.ts      (REDIS_URL or TOCSIN_TEST_REDIS_URL for the Redis rows)
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { loadConfig } from '../../src/config/index.ts';
import { createTocsin, type Tocsin } from '../../src/main.ts';
import { SCOPES } from '../../src/modules/auth/index.ts';
import { createLogger } from '../../src/platform/logger.ts';

/** The part of autocannon's programmatic API used here (the package ships no types). */
interface CannonRequest {
  method?: string;
  setupRequest?: (req: { headers?: Record<string, string> }) => Record<string, unknown>;
}
interface CannonResult {
  latency: { p50: number; p99: number };
  requests: { average: number };
  non2xx: number;
}
const autocannon = createRequire(import.meta.url)('autocannon') as (o: {
  url: string;
  connections: number;
  duration: number;
  requests: CannonRequest[];
}) => Promise<CannonResult>;

const DURATION = Number(process.env.BENCH_SECONDS ?? 4);
const CONNECTIONS = 10;
const redisUrl = process.env.REDIS_URL ?? process.env.TOCSIN_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

interface Row {
  limiter: string;
  case: string;
  p50: number;
  p99: number;
  rps: number;
  non2xx: number;
}

async function start(
  label: string,
  redis: string | null,
): Promise<{ tocsin: Tocsin; base: string; keys: string[]; monitorId: string; dir: string; label: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'tocsin-bench-'));
  const file: Record<string, unknown> = {
    plans: { enterprise: { interval_floor_seconds: 1 } },
    scheduler: { enabled: false },
  };
  if (redis) file.redis_url = `${redis}?keyPrefix=tocsin-bench-${randomBytes(4).toString('hex')}:`;
  const config = loadConfig({
    env: {
      TOCSIN_DATA_DIR: dir,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      LOG_FORMAT: 'json',
      TOCSIN_CONFIG: '/virtual',
      PORT: '0',
      HOST: '127.0.0.1',
    },
    readFile: () => JSON.stringify(file),
    isTty: false,
  });
  const tocsin = await createTocsin(config, {
    logger: createLogger({ level: 'silent', pretty: false }),
    background: false,
  });
  const { orgs, auth } = tocsin.services;
  const org = await orgs.createOrganization({ name: 'bench', plan: 'enterprise' });
  const user = await orgs.ensureUser({ email: `bench-${org.id}@example.com` });
  await orgs.addMember(org.id, user.id, 'owner');
  // Enough keys that the budgets (100000/min each) never refuse during the run.
  const keys: string[] = [];
  for (let i = 0; i < 40; i++) {
    const k = await auth.issueKey({
      organizationId: org.id,
      name: `bench-${i}`,
      scopes: [...SCOPES],
      environments: ['production'],
      userId: user.id,
      rateLimits: { read_per_minute: 100_000, write_per_minute: 100_000, delete_per_minute: 100_000 },
    });
    keys.push(k.key);
  }
  const address = await tocsin.app.listen({ port: 0, host: '127.0.0.1' });
  const res = await fetch(`${address}/api/v1/monitors`, {
    method: 'POST',
    headers: { authorization: `Bearer ${keys[0]}`, 'content-type': 'application/json' },
    body: JSON.stringify({ target: 'https://bench.example.com', paused: true }),
  });
  const monitorId = ((await res.json()) as { id: string }).id;
  return { tocsin, base: address, keys, monitorId, dir, label };
}

async function run(
  limiter: string,
  name: string,
  url: string,
  opts: { method?: 'GET' | 'POST'; keys?: string[]; idempotency?: boolean },
): Promise<Row> {
  let n = 0;
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: DURATION,
    requests: [
      {
        method: opts.method ?? 'GET',
        setupRequest: (req: { headers?: Record<string, string> }) => {
          n += 1;
          const headers: Record<string, string> = { ...req.headers };
          if (opts.keys) headers.authorization = `Bearer ${opts.keys[n % opts.keys.length]}`;
          if (opts.idempotency) headers['idempotency-key'] = `bench-${n}-${randomBytes(4).toString('hex')}`;
          return { ...req, headers };
        },
      },
    ],
  });
  return {
    limiter,
    case: name,
    p50: result.latency.p50,
    p99: result.latency.p99,
    rps: Math.round(result.requests.average),
    non2xx: result.non2xx,
  };
}

async function main(): Promise<void> {
  const rows: Row[] = [];
  const targets = [await start('memory', null)];
  try {
    targets.push(await start('redis', redisUrl));
  } catch (err) {
    process.stderr.write(`redis rows skipped: ${(err as Error).message}\n`);
  }
  for (const t of targets) {
    rows.push(await run(t.label, 'GET /healthz (no auth)', `${t.base}/healthz`, {}));
    rows.push(
      await run(t.label, 'GET /api/v1/monitors/{id} (auth+scope+rl+read)', `${t.base}/api/v1/monitors/${t.monitorId}`, {
        keys: t.keys,
      }),
    );
    rows.push(
      await run(
        t.label,
        'POST /monitors/{id}/pause (auth+scope+rl)',
        `${t.base}/api/v1/monitors/${t.monitorId}/pause`,
        { method: 'POST', keys: t.keys },
      ),
    );
    rows.push(
      await run(
        t.label,
        'POST /monitors/{id}/pause + Idempotency-Key',
        `${t.base}/api/v1/monitors/${t.monitorId}/pause`,
        { method: 'POST', keys: t.keys, idempotency: true },
      ),
    );
  }
  for (const t of targets) {
    await t.tocsin.close();
    rmSync(t.dir, { recursive: true, force: true });
  }
  const header = ['limiter', 'case', 'p50 ms', 'p99 ms', 'req/s', 'non-2xx'];
  const table = rows.map((r) => [r.limiter, r.case, String(r.p50), String(r.p99), String(r.rps), String(r.non2xx)]);
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ');
  process.stdout.write(`connections=${CONNECTIONS} duration=${DURATION}s per case, SQLite, node ${process.version}\n`);
  process.stdout.write(`${line(header)}\n${widths.map((w) => '-'.repeat(w)).join('-|-')}\n`);
  for (const r of table) process.stdout.write(`${line(r)}\n`);
}

await main();
