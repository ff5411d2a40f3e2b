/**
 * A public status page with history in a real Chromium over a real port, JavaScript disabled: 90-day bars, uptime
 * windows, the outage banner, current and past incidents, SLA targets; at 360 px and 1280 px, light and dark, with
 * an axe scan of each (no serious or critical violation). Screenshots go to $TOCSIN_SCREENSHOTS or the temp dir.
 */
import AxeBuilder from '@axe-core/playwright';
import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { at, clientOf } from '../reports/reports.helpers.ts';
import { createTestApp, ManualClock, type TestApp } from '../support/app.ts';
import { skipWithout, testServices } from '../support/services.ts';

const shots = process.env.TOCSIN_SCREENSHOTS ?? join(os.tmpdir(), 'tocsin-status-page-shots');

describe.skipIf(skipWithout('chromium'))('public status page in Chromium without JavaScript', () => {
  let t: TestApp;
  let browser: Browser;
  let origin: string;
  const names = { api: 'Public API with a rather long name that must wrap on a phone', web: 'Website', jobs: 'Jobs' };

  beforeAll(async () => {
    const clock = new ManualClock('2026-05-07T00:00:00.000Z');
    t = await createTestApp({ clock });
    const org = await t.createOrg();
    const c = clientOf(t, org);
    const api = await c.createMonitor({ name: names.api });
    const web = await c.createMonitor({ name: names.web });
    const jobs = await c.createMonitor({ name: names.jobs });
    for (const id of [api, web, jobs]) await c.check(id, 'up', at('2026-05-07T00:00:00Z'));
    clock.set('2026-05-08T09:00:00Z');
    await c.check(api, 'down', at('2026-05-08T09:00:00Z'));
    await c.check(api, 'down', at('2026-05-08T09:01:00Z'));
    await c.check(api, 'up', at('2026-05-08T09:45:00Z'));
    clock.set('2026-05-09T00:00:00Z');
    expect((await c.call('POST', `/api/v1/monitors/${web}/pause`)).status).toBe(200);
    await c.check(jobs, 'down', at('2026-05-10T11:00:00Z'));
    await c.check(jobs, 'down', at('2026-05-10T11:01:00Z'));
    clock.set('2026-05-10T12:00:00Z');
    expect(
      (
        await c.call('POST', '/api/v1/sla-targets', {
          name: 'Public API',
          monitor_ids: [api],
          target_percent: 99.5,
          period: 'monthly',
        })
      ).status,
    ).toBe(201);
    const page = await c.call('POST', '/api/v1/status-pages', {
      slug: 'acme-history',
      title: 'Acme status',
      monitor_ids: [api, web, jobs],
      show_sla_targets: true,
    });
    expect(page.status).toBe(201);
    // Notices (DECISIONS §18): one open with a Markdown timeline, one resolved with a published post-mortem.
    const notices = `/api/v1/status-pages/${(page.body as { id: string }).id}/notices`;
    const open = await c.call('POST', notices, {
      kind: 'incident',
      title: 'Jobs are delayed',
      impact: 'major',
      affected_monitor_ids: [jobs],
      body: 'We are looking into **delayed jobs**; see [the runbook](https://example.com/runbook).',
      published: true,
    });
    expect(open.status).toBe(201);
    const resolved = await c.call('POST', notices, {
      kind: 'maintenance',
      title: 'Database upgrade',
      body: 'Upgrading the database.',
      published: true,
      status: 'resolved',
      postmortem: '## What we learned\n\n- Upgrades take *longer* than planned.',
      postmortem_published: true,
    });
    expect(resolved.status).toBe(201);
    await t.tocsin.app.listen({ port: 0, host: '127.0.0.1' });
    origin = `http://127.0.0.1:${(t.tocsin.app.server.address() as AddressInfo).port}`;
    browser = await chromium.launch({
      executablePath: testServices.chromiumPath!,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
    });
    mkdirSync(shots, { recursive: true });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it(
    'reads without JavaScript on a phone and on a desktop, light and dark, and passes axe',
    { timeout: 120_000 },
    async () => {
      const problems: string[] = [];
      for (const width of [360, 1280]) {
        for (const scheme of ['light', 'dark'] as const) {
          const context = await browser.newContext({
            javaScriptEnabled: false,
            viewport: { width, height: 900 },
            colorScheme: scheme,
            ...(width === 360 && { isMobile: true, deviceScaleFactor: 2 }),
          });
          const page = await context.newPage();
          const requested: string[] = [];
          page.on('request', (r) => requested.push(r.url()));
          // Chromium reports what the Content-Security-Policy refused (an inline style not matching a hash …).
          const refused: string[] = [];
          page.on('console', (m) => {
            if (/Content Security Policy/i.test(m.text())) refused.push(m.text());
          });
          const response = await page.goto(`${origin}/status/acme-history`);
          expect(response?.status()).toBe(200);
          expect(response?.headers()['content-security-policy']).toMatch(/^default-src 'none'/);
          // Nothing but the page itself: no script, no font, no image.
          expect(requested).toEqual([`${origin}/status/acme-history`]);
          expect(await page.locator('h1').allTextContents()).toEqual(['Acme status']);
          expect(await page.getByRole('status').textContent()).toBe('! Partial outage1 of 3 systems degraded');
          const cards = page.locator('li.monitor');
          expect(await cards.count()).toBe(3);
          const api = cards.filter({ hasText: names.api });
          expect(await api.locator('.st').textContent()).toBe('✓ Operational');
          expect(await cards.filter({ hasText: names.web }).locator('.st').textContent()).toBe('‖ Paused');
          expect(await cards.filter({ hasText: names.jobs }).locator('.st').textContent()).toBe('! Degraded');
          // 2026-05-08: 45 min down of 24 h; since creation 84 h monitored, 45 min down.
          expect(await api.locator('ol.bars li').nth(87).textContent()).toBe('2026-05-08: 96.87% uptime, 45 min down');
          expect(await api.locator('dl.up dd').allTextContents()).toEqual(['100%', '99.10%', '99.10%', '99.10%']);
          const current = page.locator('section', { has: page.getByRole('heading', { name: 'Current incidents' }) });
          expect(await current.getByText('Jobs is down').isVisible()).toBe(true);
          const past = page.locator('section', { has: page.getByRole('heading', { name: /Past incidents/ }) });
          expect(await past.locator('li').count()).toBe(1);
          expect(await past.getByText('lasted 45 min').isVisible()).toBe(true);
          const notice = page.locator('section', { has: page.getByRole('heading', { name: 'Current notices' }) });
          expect(await notice.locator('li.notice h3').allTextContents()).toEqual(['Jobs are delayed']);
          expect(await notice.locator('.md strong').textContent()).toBe('delayed jobs');
          expect(await notice.getByText('! Major impact · Affects: Jobs').isVisible()).toBe(true);
          const pastNotices = page.locator('section', { has: page.getByRole('heading', { name: /Past notices/ }) });
          expect(await pastNotices.locator('li.notice h3').allTextContents()).toEqual(['Database upgrade']);
          expect(await pastNotices.locator('details.pm summary').textContent()).toBe('Postmortem');
          const sla = page.getByRole('table');
          expect(await sla.getByRole('rowheader').allTextContents()).toEqual(['Public API']);

          // No sideways scrolling; every bar inside the screen.
          const widths = await page
            .locator('html')
            .evaluate((root) => ({ scroll: root.scrollWidth, client: root.clientWidth }));
          expect(widths.scroll).toBeLessThanOrEqual(widths.client);
          const box = await api.locator('ol.bars li').last().boundingBox();
          expect(box!.x + box!.width).toBeLessThanOrEqual(width);

          // Hovering a day shows its label.
          if (width === 1280) {
            await api.locator('ol.bars li').nth(87).hover();
            expect(await api.locator('ol.bars li').nth(87).locator('span').isVisible()).toBe(true);
          }
          await page.screenshot({ path: join(shots, `status-page-${width}-${scheme}.png`), fullPage: true });
          // The page is styled (its sheet was applied, not refused) and nothing was refused.
          expect(
            await page.locator('body').evaluate((b) => b.ownerDocument.defaultView!.getComputedStyle(b).margin),
          ).toBe('0px');
          expect(refused).toEqual([]);

          await context.close();
          // axe runs as a script in the page: the same bytes, in a context where scripts run.
          const scanning = await browser.newContext({ viewport: { width, height: 900 }, colorScheme: scheme });
          const scanned = await scanning.newPage();
          await scanned.goto(`${origin}/status/acme-history`);
          const result = await new AxeBuilder({ page: scanned }).analyze();
          for (const v of result.violations) {
            if (v.impact === 'serious' || v.impact === 'critical')
              problems.push(
                `${width} ${scheme}: ${v.id} (${v.impact}) ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
              );
          }
          await scanning.close();
        }
      }
      expect(problems).toEqual([]);
    },
  );
});
