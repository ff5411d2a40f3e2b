/**
 * Alerting benchmark (docs/BENCHMARKS.md, "## Alerting"). Run: node bench/alerting/alerting.bench.ts
 *
 * 1. Latency: from the transition write (the outbox event committed with the incident) to the signed webhook
 *    received and verified by a local receiver; p50/p99 over 200 transitions (goal p99 < 250 ms).
 * 2. Throughput: one event fanned out to 1,000 generic webhooks on a local receiver; deliveries per second.
 * In-process `tocsin` on SQLite with the real background roles (dispatcher + workers), default poll 100 ms.
 */
import { createServer } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../../src/config/index.ts';
import { createTocsin } from '../../src/main.ts';
import { SCOPES } from '../../src/modules/auth/index.ts';
import { verifyWebhook } from '../../src/modules/alerting/destinations/index.ts';
import { createLogger } from '../../src/platform/logger.ts';

const TRANSITIONS = Number(process.env.BENCH_TRANSITIONS ?? 200);
const FANOUT = Number(process.env.BENCH_DESTINATIONS ?? 1000);

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'tocsin-bench-alerting-'));
  const config = loadConfig({
    env: {
      TOCSIN_DATA_DIR: dataDir,
      TOCSIN_CONFIG: '/virtual.json',
      LOG_LEVEL: 'warn',
      ...(process.env.DATABASE_URL && { DATABASE_URL: process.env.DATABASE_URL }),
    },
    readFile: () =>
      JSON.stringify({ plans: { enterprise: { interval_floor_seconds: 1 } }, scheduler: { enabled: false } }),
    isTty: false,
  });
  const tocsin = await createTocsin(config, { logger: createLogger({ level: 'error', pretty: false }) });
  const { orgs, auth, events } = tocsin.services;

  // Receiver: verifies every request with the destination's secret and notes the arrival time per event.
  const secrets = new Map<string, string>();
  const arrivals = new Map<string, number[]>();
  let bad = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = performance.now();
      const body = Buffer.concat(chunks).toString('utf8');
      const parsed = JSON.parse(body) as { id: string; destination: { id: string } };
      const ok = verifyWebhook({ secret: secrets.get(parsed.destination.id) ?? '', headers: req.headers, body });
      if (!ok.ok) bad += 1;
      const list = arrivals.get(parsed.id) ?? [];
      list.push(at);
      arrivals.set(parsed.id, list);
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;

  const org = await orgs.createOrganization({ name: 'Bench', plan: 'enterprise' });
  const user = await orgs.ensureUser({ email: 'bench@example.com' });
  await orgs.addMember(org.id, user.id, 'owner');
  const key = await auth.issueKey({
    organizationId: org.id,
    name: 'bench',
    scopes: [...SCOPES],
    environments: ['production'],
    userId: user.id,
    rateLimits: { read_per_minute: 1_000_000, write_per_minute: 1_000_000, delete_per_minute: 1_000_000 },
  });
  const call = async (method: 'POST' | 'PATCH', path: string, body: unknown) => {
    const res = await tocsin.app.inject({
      method,
      url: path,
      headers: { authorization: `Bearer ${key.key}`, 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    });
    if (res.statusCode >= 300) throw new Error(`${path}: ${res.body}`);
    return res.json() as { id: string; signing_secret?: string };
  };
  const newHook = async () => {
    const d = await call('POST', '/api/v1/auth/organization/webhooks', {
      type: 'generic_webhook',
      name: 'bench',
      config: { url },
    });
    secrets.set(d.id, d.signing_secret!);
    return d.id;
  };
  const record = (monitorId: string, type: 'down' | 'recovered') =>
    tocsin.database.transaction((tx) =>
      events.record(tx, {
        organizationId: org.id,
        type,
        monitorId,
        incidentId: null,
        occurredAt: Date.now(),
        payload: { cause: 'HTTP 503' },
      }),
    );
  const waitFor = async (eventId: string, count: number, timeoutMs: number) => {
    const start = performance.now();
    while ((arrivals.get(eventId)?.length ?? 0) < count) {
      if (performance.now() - start > timeoutMs) throw new Error(`timeout waiting for ${eventId}`);
      await new Promise((r) => setImmediate(r));
    }
  };

  await tocsin.startBackground();

  // 1. Latency.
  const one = await newHook();
  const monitor = await call('POST', '/api/v1/monitors', {
    name: 'bench',
    target: 'https://example.com',
    interval_seconds: 60,
    paused: true,
    config: { alert_destination_ids: [one] },
  });
  const latencies: number[] = [];
  for (let i = 0; i < TRANSITIONS; i++) {
    const t0 = performance.now();
    const e = await record(monitor.id, i % 2 === 0 ? 'down' : 'recovered');
    await waitFor(e.id, 1, 10_000);
    latencies.push(arrivals.get(e.id)![0]! - t0);
    await new Promise((r) => setTimeout(r, Math.random() * 20));
  }
  latencies.sort((a, b) => a - b);

  // 2. Fan-out to many destinations: a monitor alerts at most 100 destinations, so 10 monitors × 100 webhooks,
  //    one down each, all written in one transaction (1,000 deliveries).
  const monitors: string[] = [];
  for (let m = 0; m < FANOUT / 100; m++) {
    const ids: string[] = [];
    for (let i = 0; i < 100; i++) ids.push(await newHook());
    monitors.push(
      (
        await call('POST', '/api/v1/monitors', {
          name: `wide ${m}`,
          target: 'https://example.com',
          interval_seconds: 60,
          paused: true,
          config: { alert_destination_ids: ids },
        })
      ).id,
    );
  }
  const t0 = performance.now();
  const written = await tocsin.database.transaction(async (tx) => {
    const out: string[] = [];
    for (const monitorId of monitors) {
      out.push(
        (
          await events.record(tx, {
            organizationId: org.id,
            type: 'down',
            monitorId,
            incidentId: null,
            occurredAt: Date.now(),
            payload: { cause: 'HTTP 503' },
          })
        ).id,
      );
    }
    return out;
  });
  for (const id of written) await waitFor(id, 100, 120_000);
  const list = written.flatMap((id) => arrivals.get(id)!);
  const elapsed = Math.max(...list) - t0;

  const fmt = (n: number) => n.toFixed(1);
  console.log(
    `machine: ${cpus()[0]?.model ?? 'unknown'} ×${cpus().length}, node ${process.version}, ${config.databaseUrl ? 'PostgreSQL' : 'SQLite'}, date ${new Date().toISOString()}`,
  );
  console.log(
    `latency transition write → signed webhook received (${TRANSITIONS} transitions): p50 ${fmt(percentile(latencies, 50))} ms, p90 ${fmt(percentile(latencies, 90))} ms, p99 ${fmt(percentile(latencies, 99))} ms, max ${fmt(latencies[latencies.length - 1]!)} ms`,
  );
  console.log(
    `fan-out: ${monitors.length} events → ${list.length} generic webhook deliveries: all received in ${fmt(elapsed)} ms → ${Math.round((FANOUT / elapsed) * 1000)} deliveries/s (first after ${fmt(Math.min(...list) - t0)} ms)`,
  );
  console.log(`signature failures: ${bad}`);

  await tocsin.close();
  server.closeAllConnections();
  server.close();
  rmSync(dataDir, { recursive: true, force: true });
}

await main();
