/**
 * Monitors in every state the overview counts, made through a session against real loopback targets: three up,
 * two down (a 503 target: each opens an incident), one degraded (a slow target past degraded_latency_ms), one
 * paused and one covered by a maintenance window now. Shared by the overview browser test and its screenshots.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { sessionApi, startTarget, type SwitchableTarget } from './web-app.harness.ts';

export interface OverviewTargets {
  up: SwitchableTarget;
  down: SwitchableTarget;
  slow: { url: string; close(): Promise<void> };
  close(): Promise<void>;
}

/** An HTTP target that answers 200 after `delayMs`: a check of it succeeds slowly. */
async function startSlowTarget(delayMs: number): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((_req, res) => {
    setTimeout(() => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('slow but fine');
    }, delayMs);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/slow`,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

export async function startOverviewTargets(): Promise<OverviewTargets> {
  const [up, down, slow] = await Promise.all([startTarget(), startTarget(), startSlowTarget(400)]);
  down.up = false;
  return { up, down, slow, close: async () => void (await Promise.all([up.close(), down.close(), slow.close()])) };
}

const DOWN_NAMES = ['Payments API', 'Search API'];

export interface OverviewSeed {
  down: string[];
  degraded: string;
  paused: string;
  maintenance: string;
}

/** `downCount`: how many failing monitors (2 by default; more to see a group capped at five). */
export async function seedOverview(
  page: Page,
  origin: string,
  targets: OverviewTargets,
  downCount = 2,
): Promise<OverviewSeed> {
  const call = await sessionApi(page, origin);
  const made = async (body: Record<string, unknown>) => {
    const res = await call('POST', '/api/v1/monitors', { interval_seconds: 2, ...body });
    if (res.status !== 201) throw new Error(`POST /monitors → ${res.status} ${JSON.stringify(res.body)}`);
    return (res.body as { id: string }).id;
  };
  for (const name of ['Website', 'Docs', 'Blog']) await made({ name, target: targets.up.url });
  const down: string[] = [];
  for (let i = 0; i < downCount; i++)
    down.push(await made({ name: DOWN_NAMES[i] ?? `Failing service ${i + 1}`, target: targets.down.url }));
  const degraded = await made({
    name: 'Checkout',
    target: targets.slow.url,
    config: { degraded_latency_ms: 150, failure_threshold: 1 },
  });
  const paused = await made({ name: 'Old site', target: targets.up.url });
  const pausing = await call('POST', `/api/v1/monitors/${paused}/pause`);
  if (pausing.status !== 200) throw new Error(`pause → ${pausing.status} ${JSON.stringify(pausing.body)}`);
  const maintenance = await made({ name: 'Reports', target: targets.up.url });
  const now = Date.now();
  const window = await call('POST', '/api/v1/maintenance-windows', {
    name: 'Database upgrade',
    monitor_ids: [maintenance],
    schedule: {
      type: 'once',
      starts_at: new Date(now - 60_000).toISOString(),
      ends_at: new Date(now + 2 * 3_600_000).toISOString(),
    },
  });
  if (window.status !== 201) throw new Error(`maintenance window → ${window.status} ${JSON.stringify(window.body)}`);
  return { down, degraded, paused, maintenance };
}

/** Waits until the engine has judged every seeded monitor and opened the down monitors' incidents. */
export async function waitForStates(page: Page, origin: string, downCount = 2): Promise<void> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    const monitors = (await (await page.request.get(`${origin}/api/v1/monitors?limit=50`)).json()) as {
      data: { status: string }[];
    };
    const incidents = (await (await page.request.get(`${origin}/api/v1/incidents?status=opened`)).json()) as {
      data: unknown[];
    };
    const count = (s: string) => monitors.data.filter((m) => m.status === s).length;
    if (
      count('up') === 3 &&
      count('down') === downCount &&
      count('degraded') === 1 &&
      count('paused') === 1 &&
      count('maintenance') === 1 &&
      incidents.data.length === downCount
    )
      return;
    if (Date.now() > deadline)
      throw new Error(
        `states not reached: ${JSON.stringify(monitors.data.map((m) => m.status))}, ${incidents.data.length} incidents`,
      );
    await new Promise((r) => setTimeout(r, 500));
  }
}
