/**
 * From a check to an alert (docs/architecture.md): what must commit with a check result (the execution, the status,
 * the incident, its outbox events) does not wait for, and cannot be rolled back by, the analytics of the batch.
 * Intelligence ingestion is made to hang on a statement that never answers, then to fail; the checks go on being
 * claimed on time, are stored, open the incident and deliver the alert to a real HTTP receiver.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ANALYTICS_BUDGET_MS } from '../../src/modules/checks/index.ts';
import type { Database } from '../../src/platform/db/index.ts';
import { ManualTimers } from '../../src/platform/timers.ts';
import { api, WEBHOOKS } from '../alerting/helpers.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../fakes/index.ts';
import { sampleValue } from '../operations/prometheus.text.ts';
import { createTestApp, ManualClock, type TestApp } from '../support/app.ts';
import { testDialects } from '../support/databases.ts';
import { startHttpTarget, type RunningTarget } from '../support/targets/index.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response and webhook bodies are inspected loosely
type Json = Record<string, any>;

describe.each(testDialects())('from a check to an alert, intelligence stuck then failing (%s)', (dialect) => {
  let t: TestApp;
  let clock: ManualClock;
  let timers: ManualTimers;
  let receiver: WebhookReceiver;
  let target: RunningTarget;
  const secret = { value: '' };

  beforeAll(async () => {
    target = await startHttpTarget((_req, res) => {
      res.writeHead(503, { 'content-type': 'text/plain' });
      res.end('unavailable');
    });
    clock = new ManualClock(Date.parse('2026-03-01T10:00:00.000Z'));
    timers = new ManualTimers();
    receiver = await startWebhookReceiver({
      get secret() {
        return secret.value;
      },
      now: () => clock.now(),
    } as { secret: string });
    t = await createTestApp({ dialect, clock, timers, configFile: { metrics: { enabled: true } } });
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
    await target?.close();
  });

  const scrape = async () => (await t.tocsin.app.inject({ method: 'GET', url: '/metrics' })).body;
  /** The engine's claim-lateness histogram (sum in seconds, count of claims) for the local region. */
  const claimLateness = async () => {
    const text = await scrape();
    return {
      sum: sampleValue(text, 'tocsin_check_claim_lateness_seconds_sum', { region: 'local' }) ?? 0,
      count: sampleValue(text, 'tocsin_check_claim_lateness_seconds_count', { region: 'local' }) ?? 0,
    };
  };

  it('executions stored, incident opened, alert delivered, lateness unchanged; each analytics failure counted', async () => {
    const org = await t.createOrg();
    const hook = await api(t, org.apiKey, 'POST', WEBHOOKS, {
      type: 'generic_webhook',
      name: 'Pager hook',
      events: ['down'],
      config: { url: receiver.webhookUrl },
    });
    expect(hook.status, JSON.stringify(hook.body)).toBe(201);
    secret.value = (hook.body as Json).signing_secret as string;
    const created = await api(t, org.apiKey, 'POST', '/api/v1/monitors', {
      name: 'Checkout',
      target: target.url,
      interval_seconds: 30,
      config: { failure_threshold: 2, alert_destination_ids: [(hook.body as Json).id] },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const monitorId = (created.body as Json).id as string;
    const engine = t.tocsin.services.checks.engine;
    const round = () => t.tocsin.services.checks.localRunner.runOnce();

    // Round 0, nothing injected: the first failure (pending), and the lateness of a claim at this phase.
    clock.advance(30_000);
    expect(await round()).toBe(1);
    await engine.analyticsSettled();
    const before = await claimLateness();
    expect(before.count).toBe(1);

    const intelligence = t.tocsin.services.intelligence;
    const ingest = intelligence.applyChecks.bind(intelligence);
    let release!: () => void;
    const answer = new Promise<void>((resolve) => (release = resolve));
    let hanging!: () => void;
    const hangs = new Promise<void>((resolve) => (hanging = resolve));
    let late: Promise<void> | null = null;
    const spy = vi
      .spyOn(intelligence, 'applyChecks')
      // Round 1: a statement that does not answer (until released at the end), then the real ingestion.
      .mockImplementationOnce((tx: Database, checks) => {
        hanging();
        late = answer.then(() => ingest(tx, checks));
        return late;
      })
      // Round 2: ingestion fails.
      .mockImplementationOnce(async () => {
        throw new Error('injected intelligence failure');
      });
    try {
      // Round 1: the second failure takes the monitor down. The runner's round ends while intelligence still hangs.
      clock.advance(30_000);
      expect(await round()).toBe(1);
      await hangs;
      // The budget ends the stuck ingestion (its transaction rolls back; on SQLite that frees the one connection).
      timers.advance(ANALYTICS_BUDGET_MS);
      await engine.analyticsSettled();

      // Round 2: ingestion throws; the check is stored all the same.
      clock.advance(30_000);
      expect(await round()).toBe(1);
      await engine.analyticsSettled();
      expect(spy).toHaveBeenCalledTimes(2);
    } finally {
      spy.mockRestore();
    }

    // Lateness as the engine measured it: every claim as late as the one before anything was injected.
    const after = await claimLateness();
    expect(after.count).toBe(3);
    expect(after.sum).toBeCloseTo(3 * before.sum, 9);
    const pressure = await engine.pressure();
    expect(pressure.latenessP99Ms).toBe(pressure.latenessP50Ms);
    expect(pressure.backlog).toBe(0);

    const executions = await api(t, org.apiKey, 'GET', `/api/v1/monitors/${monitorId}/executions`);
    expect(((executions.body as Json).data as Json[]).map((e) => e.status)).toEqual(['down', 'down', 'down']);
    const incidents = await api(t, org.apiKey, 'GET', `/api/v1/incidents?monitor_id=${monitorId}`);
    expect((incidents.body as Json).data).toMatchObject([{ status: 'opened', source: 'monitor' }]);
    const monitor = await api(t, org.apiKey, 'GET', `/api/v1/monitors/${monitorId}`);
    expect((monitor.body as Json).status).toBe('down');

    await t.tocsin.services.alerting.pipeline.runUntilIdle();
    const delivered = receiver.verified().map((r) => JSON.parse(r.rawBody) as Json);
    expect(delivered.map((b) => b.event)).toEqual(['down']);
    expect(JSON.stringify(delivered[0])).toContain(monitorId);

    // Each skipped analytics step is logged and counted, by reason.
    const text = await scrape();
    const failures = (reason: string) =>
      sampleValue(text, 'tocsin_check_analytics_failures_total', { analytics: 'intelligence', reason });
    expect(failures('timeout')).toBe(1);
    expect(failures('error')).toBe(1);
    expect(t.logs.text).toContain('injected intelligence failure');

    // The stuck statement answering late writes nothing: its transaction ended with the budget.
    release();
    await expect(late).rejects.toThrow(/rolled back/);
  });
});
