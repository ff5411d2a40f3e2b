/**
 * `tocsin demo`'s generator (src/cli/demo) plays a planned history through the check engine; the reports read it
 * back. Every expected figure here is computed from the plan (ticks, outages, pauses, latencies), independently of
 * what was stored, on SQLite and PostgreSQL.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.ts';
import { createTocsin } from '../../src/main.ts';
import { generateDemo, type DemoResult } from '../../src/cli/demo/demo.generator.ts';
import { checkedAt, latencyAt, outageAt, type PlannedMonitor } from '../../src/cli/demo/demo.plan.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { createTestApp, ManualClock, type TestApp } from '../support/app.ts';
import { testDialects } from '../support/databases.ts';
import { clientOf } from './reports.helpers.ts';

const SEED = 7;
const NOW = Date.parse('2026-11-20T12:03:00Z');

/** DDSketch's quantile on exact values (rank q·(n − 1), lower): what a sketch approximates within 1 %. */
function quantile(sorted: number[], q: number): number {
  return sorted[Math.floor(q * (sorted.length - 1))]!;
}

function ticksOf(result: DemoResult): number[] {
  const out: number[] = [];
  for (let at = result.plan.start; at < result.plan.end; at += result.plan.intervalMs) out.push(at);
  return out;
}

/** The union of the monitors' outages clipped to [from, to), in ms. */
function unionDowntime(monitors: PlannedMonitor[], from: number, to: number): number {
  const spans = monitors
    .flatMap((m) => m.outages.map((o) => [Math.max(from, o.firstFailure), Math.min(to, o.recovery)] as const))
    .filter(([a, b]) => a < b)
    .sort((x, y) => x[0] - y[0]);
  let total = 0;
  let end = -Infinity;
  for (const [a, b] of spans) {
    if (b <= end) continue;
    total += b - Math.max(a, end);
    end = b;
  }
  return total;
}

describe.each(testDialects())('tocsin demo on %s', (dialect) => {
  let t: TestApp;
  let demo: DemoResult;
  const clock = new ManualClock(NOW);

  beforeAll(async () => {
    t = await createTestApp({ dialect, clock });
    demo = await generateDemo(
      {
        services: t.tocsin.services,
        database: t.tocsin.database,
        clock,
        logger: createLogger({ level: 'silent', pretty: false }),
      },
      {
        monitors: 5,
        days: 21,
        intervalSeconds: 300,
        now: NOW,
        seed: SEED,
        organizationName: 'Demo Zürich',
        email: 'demo@example.com',
      },
    );
    clock.set(demo.plan.end);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  const api = () =>
    clientOf(t, { organizationId: demo.organization_id, userId: demo.user_id, apiKey: demo.api_key, keyId: '' });

  it('what the demo made is in the audit log, by the operator command', async () => {
    const { data } = await t.tocsin.services.audit.list(
      demo.organization_id,
      { action: 'monitor.create' },
      { limit: 50 },
    );
    expect(data.map((e) => e.target.id).sort()).toEqual([...demo.monitor_ids].sort());
    expect(new Set(data.map((e) => `${e.actor.type} ${e.actor.name}`))).toEqual(new Set(['system tocsin demo']));
  });

  it('the plan has what the demo promises: outages, blips, a pause, a late monitor, SLA targets', () => {
    const { plan } = demo;
    expect(plan.monitors).toHaveLength(5);
    expect(plan.monitors.filter((m) => m.outages.length > 0).length).toBeGreaterThanOrEqual(3);
    expect(plan.monitors.some((m) => m.outages.some((o) => o.acknowledgeAt !== null))).toBe(true);
    expect(plan.monitors.some((m) => m.blips.length > 0)).toBe(true);
    expect(plan.monitors[2]!.pause).not.toBeNull();
    expect(plan.monitors[4]!.createdAt).toBeGreaterThan(plan.start);
    expect(demo.sla_target_ids).toHaveLength(2);
    expect(demo.checks).toBeGreaterThan(20_000);
  });

  it('the availability report shows each planned outage, pause and late start to the second', async () => {
    const { plan } = demo;
    const res = await api().call(
      'GET',
      `/api/v1/reports/availability?from=${new Date(plan.start).toISOString()}&to=${new Date(plan.end).toISOString()}`,
    );
    expect(res.status).toBe(200);
    const byId = new Map((res.body.monitors as Array<Record<string, any>>).map((m) => [m.monitor_id, m])); // eslint-disable-line @typescript-eslint/no-explicit-any -- response body
    const ticks = ticksOf(demo);
    let totalDown = 0;
    for (const m of plan.monitors) {
      const row = byId.get(demo.monitor_ids[m.index]!)!;
      const down = m.outages.reduce((n, o) => n + (o.recovery - o.firstFailure), 0);
      totalDown += down;
      const paused = m.pause ? m.pause.to - m.pause.from : 0;
      const checked = ticks.filter((at) => checkedAt(m, at));
      const failed = checked.filter((at) => outageAt(m, at) !== undefined || m.blips.includes(at));
      expect(row.downtime_seconds, m.name).toBe(down / 1000);
      expect(row.paused_seconds, m.name).toBe(paused / 1000);
      expect(row.unmonitored_seconds, m.name).toBe((m.createdAt - plan.start) / 1000);
      expect(row.no_data_seconds, m.name).toBe(0);
      expect(row.monitored_seconds, m.name).toBe((plan.end - m.createdAt - paused) / 1000);
      expect(row.checks, m.name).toBe(checked.length);
      // Blips are failed checks but never downtime (failure_threshold 2).
      expect(row.failed_checks, m.name).toBe(failed.length);
      expect(row.incident_count, m.name).toBe(m.outages.length);
      expect(
        (row.incidents as Array<{ down_since: string; resolved_at: string }>).map((i) => [i.down_since, i.resolved_at]),
      ).toEqual(m.outages.map((o) => [new Date(o.firstFailure).toISOString(), new Date(o.recovery).toISOString()]));
    }
    expect(res.body.summary.downtime_seconds).toBe(totalDown / 1000);
  });

  it('incidents were acknowledged when the plan says and reminders were sent during long outages', async () => {
    const { plan } = demo;
    const c = api();
    for (const m of plan.monitors) {
      const res = await c.call('GET', `/api/v1/incidents?monitor_id=${demo.monitor_ids[m.index]}&limit=100`);
      expect(res.status).toBe(200);
      const incidents = [...(res.body.data as Array<Record<string, string | null>>)].sort((a, b) =>
        a.opened_at!.localeCompare(b.opened_at!),
      );
      expect(incidents.map((i) => [i.opened_at, i.acknowledged_at ?? null, i.status])).toEqual(
        m.outages.map((o) => [
          new Date(o.firstFailure + plan.intervalMs).toISOString(), // opened at the second failure
          o.acknowledgeAt === null ? null : new Date(o.acknowledgeAt).toISOString(),
          'resolved',
        ]),
      );
    }
    const remindable = plan.monitors.flatMap((m) =>
      m.reminderMinutes === null
        ? []
        : m.outages.filter((o) => o.recovery - (o.firstFailure + plan.intervalMs) > m.reminderMinutes! * 60_000),
    );
    if (remindable.length > 0) expect(demo.reminders).toBeGreaterThan(0);
  });

  it('the performance report percentiles are those of the generated latencies within 1 %', async () => {
    const { plan } = demo;
    const res = await api().call(
      'GET',
      `/api/v1/reports/performance?from=${new Date(plan.start).toISOString()}&to=${new Date(plan.end).toISOString()}&timezone=Europe/Berlin`,
    );
    expect(res.status).toBe(200);
    const ticks = ticksOf(demo);
    for (const m of plan.monitors) {
      const row = (res.body.monitors as Array<Record<string, number>>).find(
        (r) => r.monitor_id === (demo.monitor_ids[m.index] as unknown),
      )!;
      const latencies = ticks
        .filter((at) => checkedAt(m, at) && outageAt(m, at) === undefined && !m.blips.includes(at))
        .map((at) => latencyAt(m, at, SEED))
        .sort((a, b) => a - b);
      expect(row.successful_checks, m.name).toBe(latencies.length);
      for (const [field, q] of [
        ['p50_ms', 0.5],
        ['p95_ms', 0.95],
        ['p99_ms', 0.99],
      ] as const) {
        const exact = quantile(latencies, q);
        expect(Math.abs(row[field]! - exact) / exact, `${m.name} ${field}`).toBeLessThanOrEqual(0.0101);
      }
    }
  });

  it('the custom report renders the demo as sections, CSV with its section column', async () => {
    const c = api();
    const json = await c.call('GET', `/api/v1/custom-reports/${demo.custom_report_id}/render?format=json`);
    expect(json.status).toBe(200);
    const csv = await c.call('GET', `/api/v1/custom-reports/${demo.custom_report_id}/render?format=csv`);
    expect(csv.status).toBe(200);
    expect(
      csv.raw.body
        .replace(/^\uFEFF/, '')
        .split('\r\n')[0]!
        .startsWith('section,'),
    ).toBe(true);
  });

  it('the SLA report judges the checkout target on the union of its two monitors’ outages', async () => {
    const { plan } = demo;
    const res = await api().call('GET', `/api/v1/reports/sla?period=last_30_days`);
    expect(res.status).toBe(200);
    type Target = { sla_target_id: string; current: Record<string, number | string> };
    const target = (res.body.targets as Target[]).find((x) => x.sla_target_id === demo.sla_target_ids[0])!;
    expect(target).toMatchObject({ target_percent: 99.9, period: 'monthly', combine: 'any_down' });
    const from = Date.parse(target.current.from as string);
    const members = [plan.monitors[0]!, plan.monitors[1]!];
    const down = unionDowntime(members, from, plan.end);
    const monitored = plan.end - Math.max(from, plan.start);
    expect(target.current.downtime_seconds).toBe(down / 1000);
    expect(target.current.monitored_seconds).toBe(monitored / 1000);
    expect(target.current.achieved_percent).toBeCloseTo((100 * (monitored - down)) / monitored, 4);
  });
});

it(
  'npx tocsin demo prints the organization and key once as JSON, and the reports serve its history',
  { timeout: 120_000 },
  async () => {
    const root = resolve(import.meta.dirname, '../..');
    const dataDir = join(mkdtempSync(join(tmpdir(), 'tocsin-demo-')), 'data');
    const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', TOCSIN_DATA_DIR: dataDir };
    const res = await new Promise<{ code: number | null; stdout: string; stderr: string }>((done) => {
      const child = spawn(process.execPath, [join(root, 'bin/tocsin.js'), 'demo', '--monitors', '3', '--days', '4'], {
        cwd: root,
        env,
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      // 'close': after the pipes are drained ('exit' can come before the last output).
      child.on('close', (code) => done({ code, stdout, stderr }));
    });
    expect(res.code, res.stderr).toBe(0);
    const printed = JSON.parse(res.stdout) as {
      api_key: string;
      monitor_ids: string[];
      incidents: number;
      from: string;
    };
    expect(printed.api_key).toMatch(/^tsk_/);
    expect(printed.monitor_ids).toHaveLength(3);
    expect(printed.incidents).toBeGreaterThanOrEqual(3);
    const tocsin = await createTocsin(loadConfig({ env, isTty: false }), {
      logger: createLogger({ level: 'silent', pretty: false }),
      background: false,
    });
    try {
      const report = await tocsin.app.inject({
        method: 'GET',
        url: `/api/v1/reports/availability?from=${printed.from}&to=${new Date().toISOString()}`,
        headers: { authorization: `Bearer ${printed.api_key}` },
      });
      expect(report.statusCode).toBe(200);
      const body = report.json<{ summary: { monitors: number; incidents: number; downtime_seconds: number } }>();
      expect(body.summary.monitors).toBe(3);
      expect(body.summary.incidents).toBe(printed.incidents);
      expect(body.summary.downtime_seconds).toBeGreaterThan(0);
    } finally {
      await tocsin.close();
    }
  },
);
