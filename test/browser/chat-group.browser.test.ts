/**
 * DECISIONS §17 as a channel sees it: 30 monitors go down within a 60 s grouping window (injected clock, the real
 * incidents decision, outbox, fan-out and delivery workers, on SQLite and PostgreSQL); the Slack incoming-webhook fake
 * receives one message, which real Chromium draws as Slack's client shows a message (test/support/slack-preview.ts)
 * and screenshots. The drawn message names every monitor, each linked to its incident, under one header.
 */
import { mkdirSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MonitorTransition } from '../../src/modules/incidents/index.ts';
import { startAllFakes, type AllFakes } from '../fakes/index.ts';
import { api, WEBHOOKS } from '../alerting/helpers.ts';
import { createTestApp, ManualClock, type TestApp } from '../support/app.ts';
import { testDialects } from '../support/databases.ts';
import { skipWithout } from '../support/services.ts';
import { slackPreviewHtml } from '../support/slack-preview.ts';
import { launchChromium } from './web-app.harness.ts';

const shots = process.env.TOCSIN_SCREENSHOTS ?? join(os.tmpdir(), 'tocsin-chat-shots');

for (const dialect of testDialects()) {
  describe.skipIf(skipWithout('chromium'))(`a grouped Slack message in a channel (${dialect})`, () => {
    let t: TestApp;
    let fakes: AllFakes;
    let browser: Browser;
    const clock = new ManualClock(Date.parse('2026-11-29T02:00:00.000Z'));

    beforeAll(async () => {
      fakes = await startAllFakes();
      t = await createTestApp({ dialect, clock, configFile: { providers: fakes.providers, smtp: fakes.smtp.url } });
      browser = await launchChromium();
    }, 120_000);
    afterAll(async () => {
      await browser?.close();
      t.tocsin.services.alerting.mailer.close();
      await t.close();
      await fakes.closeAll();
    });

    it('30 downs in a 60 s window are one message listing every monitor', { timeout: 120_000 }, async () => {
      const org = await t.createOrg();
      const slack = await api(t, org.apiKey, 'POST', WEBHOOKS, {
        type: 'chatapp1_webhook',
        name: 'Ops channel',
        group_window_seconds: 60,
        config: { url: fakes.chatapp1_webhook.webhookUrl },
      });
      expect(slack.status, JSON.stringify(slack.body)).toBe(201);
      const monitors: Array<{ id: string; name: string }> = [];
      for (let i = 1; i <= 30; i++) {
        const name = `Service ${String(i).padStart(2, '0')}`;
        const res = await api(t, org.apiKey, 'POST', '/api/v1/monitors', {
          name,
          target: `https://service-${i}.example.com/health`,
          interval_seconds: 60,
          config: { alert_destination_ids: [(slack.body as { id: string }).id] },
        });
        expect(res.status, JSON.stringify(res.body)).toBe(201);
        monitors.push({ id: (res.body as { id: string }).id, name });
      }
      fakes.resetAll();
      const start = clock.now();
      for (const [i, m] of monitors.entries()) {
        // Two rounds 20 s apart, as the engine would record them (incident and `down` in one transaction).
        if (i === 15) {
          await t.tocsin.services.alerting.pipeline.runUntilIdle();
          clock.advance(20_000);
        }
        const tr: MonitorTransition = {
          organizationId: org.organizationId,
          monitorId: m.id,
          monitorName: m.name,
          from: 'up',
          to: 'down',
          at: clock.now(),
          cause: 'HTTP 503 (expected 200)',
          executionId: null,
        };
        await t.tocsin.database.transaction((tx) => t.tocsin.services.incidents.handleMonitorTransition(tx, tr));
      }
      await t.tocsin.services.alerting.pipeline.runUntilIdle();
      expect(fakes.chatapp1_webhook.requests).toHaveLength(0);
      clock.set(start + 60_000);
      await t.tocsin.services.alerting.pipeline.runUntilIdle();
      await t.tocsin.services.alerting.pipeline.runUntilIdle();
      expect(fakes.chatapp1_webhook.requests).toHaveLength(1);

      const message = fakes.chatapp1_webhook.requests[0]!.json as Parameters<typeof slackPreviewHtml>[0];
      const page = await browser.newPage({ viewport: { width: 720, height: 400 } });
      await page.setContent(slackPreviewHtml(message, { app: 'Tocsin', time: '2:01 AM' }));
      const drawn = page.getByRole('article', { name: 'Tocsin message' });
      expect(await drawn.count()).toBe(1);
      expect((await drawn.locator('.header').innerText()).trim()).toBe('🔴 30 monitors down');
      const links = drawn.locator('.section a');
      expect(await links.count()).toBe(30);
      const named = await links.evaluateAll((as) => as.map((a) => [a.textContent, a.getAttribute('href')]));
      expect(named.map(([name]) => name).sort()).toEqual(monitors.map((m) => m.name).sort());
      // Each name links to its monitor's incident.
      for (const [name, href] of named) {
        const m = monitors.find((x) => x.name === name)!;
        const incidents = await api(t, org.apiKey, 'GET', `/api/v1/incidents?monitor_id=${m.id}`);
        const incidentId = (incidents.body as { data: Array<{ id: string }> }).data[0]!.id;
        expect(href).toBe(`${t.config.publicUrl}/incidents/${incidentId}`);
      }
      // Every monitor on a line of its own.
      const text = await drawn.innerText();
      const lines = text.split('\n').map((l) => l.trim());
      for (const m of monitors) expect(lines).toContain(`🔴 DOWN ${m.name} – HTTP 503 (expected 200)`);
      mkdirSync(shots, { recursive: true });
      await page.screenshot({ path: join(shots, `chat-group-slack-${dialect}.png`), fullPage: true });
      await page.close();
    });
  });
}
