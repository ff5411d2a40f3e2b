/**
 * Issue 16, the rest of part 1, in Chromium against a real `tocsin serve` (SQLite): a monitor's status changes reach
 * the open list and detail pages over the event stream without a reload (resumed → pending → up), and an incident's
 * page shows its alerts per destination with their outcome (a receiver that accepts, one that refuses); a plan limit
 * on the monitor form is shown next to the field it is about.
 */
import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipWithout } from '../support/services.ts';
import {
  firstRun,
  launchChromium,
  sessionApi,
  settle,
  startReceiver,
  startServe,
  startTarget,
  type Receiver,
  type SwitchableTarget,
  type WebAppServer,
} from './web-app.harness.ts';

const BIN = join(resolve(import.meta.dirname, '../..'), 'bin/tocsin.js');

/** A webhook endpoint that refuses every delivery for good (410 Gone: not retried). */
async function startRefusing(): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    req.resume();
    res.writeHead(410, { 'content-type': 'text/plain' });
    res.end('gone');
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

/** Marks the document: the mark is gone after a reload, so a page that still has it was never reloaded. */
async function mark(page: Page): Promise<void> {
  await page.evaluate(() => {
    (globalThis as unknown as { __notReloaded: boolean }).__notReloaded = true;
  });
}
const stillMarked = (page: Page) =>
  page.evaluate(() => (globalThis as unknown as { __notReloaded?: boolean }).__notReloaded === true);

describe.skipIf(skipWithout('chromium'))('live status and incident deliveries (sqlite)', () => {
  let server: WebAppServer;
  let up: SwitchableTarget;
  let down: SwitchableTarget;
  let receiver: Receiver;
  let refusing: Awaited<ReturnType<typeof startRefusing>>;
  let browser: Browser;
  let page: Page;
  let call: Awaited<ReturnType<typeof sessionApi>>;

  beforeAll(async () => {
    [server, up, down, receiver, refusing, browser] = await Promise.all([
      startServe('sqlite'),
      startTarget(),
      startTarget(),
      startReceiver(),
      startRefusing(),
      launchChromium(),
    ]);
    down.up = false;
    page = await (await browser.newContext()).newPage();
    await firstRun(page, server.origin);
    call = await sessionApi(page, server.origin);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await Promise.all([up?.close(), down?.close(), receiver?.close(), refusing?.close()]);
  });

  it('a resumed monitor turns up on the open list and detail pages without a reload', { timeout: 90_000 }, async () => {
    const made = await call('POST', '/api/v1/monitors', { name: 'Fresh site', target: up.url, paused: true });
    expect(made.status).toBe(201);
    const id = (made.body as { id: string }).id;
    const detail = await page.context().newPage();
    await detail.goto(`${server.origin}/monitors/${id}`);
    await settle(detail);
    await page.goto(`${server.origin}/monitors`);
    await settle(page);
    await page.getByRole('status').filter({ hasText: 'Live' }).waitFor();
    await detail.getByRole('status').filter({ hasText: 'Live' }).waitFor();
    const row = page.locator('table.monitors tbody tr', { has: page.locator(`a[href="/monitors/${id}"]`) });
    expect(await row.locator('[data-status]').first().getAttribute('data-status')).toBe('paused');
    await mark(page);
    await mark(detail);

    // Resumed by someone else (not through these pages): paused → pending → up reaches both over the stream.
    expect((await call('POST', `/api/v1/monitors/${id}/resume`)).status).toBe(200);
    await expect
      .poll(() => row.locator('[data-status]').first().getAttribute('data-status'), { timeout: 30_000 })
      .toBe('up');
    await expect
      .poll(() => detail.locator('.page-head [data-status]').first().getAttribute('data-status'), { timeout: 30_000 })
      .toBe('up');
    expect(await stillMarked(page)).toBe(true);
    expect(await stillMarked(detail)).toBe(true);

    // Minutes old: the 24 h chart draws what there is (the current, partial bucket as a dot), and the uptime figure
    // stays on one line in its card at 1280 px.
    await detail.setViewportSize({ width: 1280, height: 900 });
    await detail.goto(`${server.origin}/monitors/${id}?period=24h`);
    await settle(detail);
    await detail.locator('.latency-chart canvas').first().waitFor();
    const uptime = detail.locator('.cards.figures .stat-value').first();
    await expect.poll(() => uptime.textContent(), { timeout: 15_000 }).toMatch(/^\d+\.\d{3} %$/);
    // In the page (this tsconfig has no DOM types).
    const box = await uptime.evaluate((el) => {
      const node = el as unknown as { clientHeight: number; scrollWidth: number; clientWidth: number };
      const view = globalThis as unknown as { getComputedStyle(e: unknown): { fontSize: string } };
      return {
        height: node.clientHeight,
        line: parseFloat(view.getComputedStyle(el).fontSize) * 1.6,
        scroll: node.scrollWidth,
        width: node.clientWidth,
      };
    });
    expect(box.height).toBeLessThan(box.line);
    expect(box.scroll).toBeLessThanOrEqual(box.width);
    await detail.screenshot({ path: '/tmp/monitor-detail-fresh.png' });
    await detail.close();
  });

  it("an incident's page shows each destination's deliveries with their outcome", { timeout: 90_000 }, async () => {
    const hook = async (name: string, url: string) => {
      const res = await call('POST', '/api/v1/auth/organization/webhooks', {
        type: 'generic_webhook',
        name,
        config: { url },
      });
      expect(res.status).toBe(201);
      return (res.body as { id: string }).id;
    };
    const accepting = await hook('Ops webhook', receiver.url);
    const refused = await hook('Old endpoint', refusing.url);
    const made = await call('POST', '/api/v1/monitors', {
      name: 'Payments API',
      target: down.url,
      config: { alert_destination_ids: [accepting, refused] },
    });
    expect(made.status).toBe(201);
    const monitorId = (made.body as { id: string }).id;
    let incidentId = '';
    await expect
      .poll(
        async () => {
          const list = await call('GET', `/api/v1/incidents?monitor_id=${monitorId}`);
          incidentId = (list.body as { data: Array<{ id: string }> }).data[0]?.id ?? '';
          return incidentId;
        },
        { timeout: 45_000 },
      )
      .not.toBe('');
    await expect.poll(() => receiver.bodies.length, { timeout: 30_000 }).toBeGreaterThan(0);

    await page.goto(`${server.origin}/incidents/${incidentId}`);
    await settle(page);
    const section = page.getByRole('region', { name: 'Deliveries' });
    const ok = section.locator(`[data-destination="${accepting}"]`);
    const bad = section.locator(`[data-destination="${refused}"]`);
    await expect
      .poll(() => ok.locator('li[data-event="down"]').getAttribute('data-outcome'), { timeout: 30_000 })
      .toBe('delivered');
    await expect
      .poll(() => bad.locator('li[data-event="down"]').getAttribute('data-outcome'), { timeout: 30_000 })
      .toBe('failed');
    expect(await ok.getByRole('heading').textContent()).toContain('Ops webhook');
    // The type as the product people know, not the API's wire name.
    expect(await ok.getByRole('heading').textContent()).toMatch(/\(\s*Webhook\)/);
    expect(await ok.getByRole('heading').textContent()).not.toContain('generic');
    expect(await ok.locator('li[data-event="down"]').textContent()).toContain('Delivered');
    const failedText = (await bad.locator('li[data-event="down"]').textContent())!;
    expect(failedText).toContain('Failed');
    expect(failedText).toContain('410');
    await page.screenshot({ path: '/tmp/incident-deliveries.png', fullPage: true });
  });

  it(
    'the monitor list reads the history of the rows on screen in one batch, not two requests per row',
    { timeout: 60_000 },
    async () => {
      for (let i = 0; i < 12; i += 1) {
        const res = await call('POST', '/api/v1/monitors', { name: `Batch ${i}`, target: up.url, paused: true });
        expect(res.status).toBe(201);
      }
      const history: string[] = [];
      const listen = (r: { url(): string }) => {
        const url = new URL(r.url());
        if (url.pathname.endsWith('/history')) history.push(url.pathname);
      };
      page.on('request', listen);
      await page.goto(`${server.origin}/monitors`);
      await settle(page);
      const rows = page.locator('table.monitors tbody tr');
      await expect
        .poll(() => page.locator('table.monitors tbody td.bar-cell svg').count(), { timeout: 15_000 })
        .toBe(await rows.count());
      page.off('request', listen);
      expect(await rows.count()).toBeGreaterThanOrEqual(14);
      // Batch requests (90 days daily, 24 h hourly) for all the rows, none per monitor. A live update arriving while the
      // page loads (the monitors just made) may read the batch again, so the count is bounded, not exact.
      expect(history.length).toBeGreaterThanOrEqual(2);
      expect(history.length).toBeLessThanOrEqual(4);
      expect(new Set(history)).toEqual(new Set(['/api/v1/monitors/history']));
    },
  );

  // Last: it moves the organization to the team plan (its interval floor is above 10 s).
  it('a plan limit is shown next to the field it is about, not above the form', { timeout: 60_000 }, async () => {
    const session = (await call('GET', '/api/v1/auth/session')).body as { organization: { id: string } };
    await promisify(execFile)(
      process.execPath,
      [BIN, 'admin', 'set-plan', '--org', session.organization.id, '--plan', 'team'],
      { env: server.env },
    );
    await page.goto(`${server.origin}/monitors/new`);
    await settle(page);
    await page.getByLabel('Target').fill(up.url);
    await page.getByLabel('Check every (seconds)').fill('10');
    await page.getByRole('button', { name: 'Create monitor' }).click();
    const interval = page.locator('.field[data-field="interval_seconds"]');
    await expect
      .poll(() => interval.locator('.field-error').textContent(), { timeout: 15_000 })
      .toMatch(/interval floor is \d+ seconds; 10 seconds/);
    expect(await page.getByLabel('Check every (seconds)').getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('.form-error').count()).toBe(0);
    expect(
      await page.evaluate(
        () =>
          (globalThis as unknown as { document: { activeElement: { id: string } | null } }).document.activeElement?.id,
      ),
    ).toBe(await page.getByLabel('Check every (seconds)').getAttribute('id'));
    expect(page.url()).toMatch(/\/monitors\/new$/);
  });
});
