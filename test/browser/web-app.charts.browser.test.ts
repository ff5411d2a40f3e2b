/**
 * The charts in Chromium against a real `tocsin serve`: a monitor whose target really goes down (an incident opens and
 * resolves) and that a maintenance window covered shows, on its page, the latency chart shaded from
 * `GET /monitors/{id}/periods` (down, maintenance, the incident), the state strip with those periods, the legend
 * and the periods as a table; figure cards never overflow at 1280 or 360 px; the API key usage chart has axes,
 * units and a table. axe finds nothing in light or dark. Screenshots go to TOCSIN_SCREENSHOTS (docs/images).
 */
import { mkdirSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipWithout } from '../support/services.ts';
import {
  axe,
  firstRun,
  launchChromium,
  sessionApi,
  settle,
  startServe,
  startTarget,
  type SwitchableTarget,
  type WebAppServer,
} from './web-app.harness.ts';

const shots = process.env.TOCSIN_SCREENSHOTS ?? join(os.tmpdir(), 'tocsin-chart-shots');
type Call = Awaited<ReturnType<typeof sessionApi>>;
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies in assertions

async function pollFor<T>(what: string, read: () => Promise<T | null | undefined | false>, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function violations(page: Page): Promise<string[]> {
  return (await axe(page).analyze()).violations.map(
    (v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
  );
}

/** Figure cards whose value is wider than the card (the "748 d 14 h" cut off at 1280 px). */
function overflowingFigures(): string[] {
  const doc = (globalThis as unknown as { document: { querySelectorAll(s: string): Iterable<any> } }).document; // eslint-disable-line @typescript-eslint/no-explicit-any -- DOM in the page
  const out: string[] = [];
  for (const card of doc.querySelectorAll('.card.stat')) {
    const value = card.querySelector('.stat-value');
    if (value && (value.scrollWidth > value.clientWidth + 1 || card.scrollWidth > card.clientWidth + 1)) {
      out.push(String(value.textContent));
    }
  }
  return out;
}

/** The state strip's left and right edges against the chart's plot area (uPlot's .u-over), in CSS pixels. */
async function stripOffsets(page: Page): Promise<{ left: number; right: number }> {
  return page.evaluate(() => {
    const doc = (globalThis as unknown as { document: { querySelector(s: string): any } }).document; // eslint-disable-line @typescript-eslint/no-explicit-any -- DOM in the page
    const plot = doc.querySelector('.latency-chart .u-over').getBoundingClientRect();
    const strip = doc.querySelector('[data-testid="state-strip"]').getBoundingClientRect();
    return { left: strip.left - plot.left, right: strip.right - plot.right };
  });
}

describe.skipIf(skipWithout('chromium'))('web app charts (sqlite)', () => {
  let server: WebAppServer;
  let target: SwitchableTarget;
  let browser: Browser;
  let page: Page;
  let call: Call;
  let monitorId = '';
  let keyId = '';

  beforeAll(async () => {
    mkdirSync(shots, { recursive: true });
    [server, target, browser] = await Promise.all([startServe('sqlite'), startTarget(), launchChromium()]);
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await firstRun(page, server.origin);
    call = await sessionApi(page, server.origin);
    const made = await call('POST', '/api/v1/monitors', {
      name: 'Checkout',
      target: target.url,
      interval_seconds: 1,
      config: { failure_threshold: 2, success_threshold: 1 },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    monitorId = (made.body as Json).id as string;
    const statusOf = async () => ((await call('GET', `/api/v1/monitors/${monitorId}`)).body as Json).status as string;
    await pollFor('up', async () => (await statusOf()) === 'up');
    // A maintenance window of a few seconds, then a real outage: the target answers 503 until the incident opens.
    const now = Date.now();
    const window = await call('POST', '/api/v1/maintenance-windows', {
      name: 'Deploy',
      monitor_ids: [monitorId],
      schedule: {
        type: 'once',
        starts_at: new Date(now + 1_000).toISOString(),
        ends_at: new Date(now + 6_000).toISOString(),
      },
    });
    expect(window.status, JSON.stringify(window.body)).toBe(201);
    await pollFor('maintenance', async () => (await statusOf()) === 'maintenance');
    await pollFor('up after maintenance', async () => (await statusOf()) === 'up');
    target.up = false;
    await pollFor('down', async () => (await statusOf()) === 'down');
    await new Promise((r) => setTimeout(r, 3_000));
    target.up = true;
    await pollFor('incident resolved', async () => {
      const list = (await call('GET', `/api/v1/incidents?monitor_id=${monitorId}`)).body as Json;
      return list.data.length === 1 && list.data[0].status === 'resolved';
    });
    // Checks after the outage, so that the line goes on after the shading.
    await new Promise((r) => setTimeout(r, 3_000));
    const key = await call('POST', '/api/v1/api-keys', { name: 'CI', scopes: ['monitors:read'] });
    expect(key.status).toBe(201);
    keyId = (key.body as Json).id as string;
    for (let i = 0; i < 6; i++) {
      const res = await fetch(`${server.origin}/api/v1/monitors${i % 2 ? `/${monitorId}` : ''}`, {
        headers: { authorization: `Bearer ${(key.body as Json).key as string}` },
      });
      expect(res.status).toBe(200);
    }
    await pollFor('usage flushed', async () => {
      const usage = (await call('GET', `/api/v1/api-keys/${keyId}/usage`)).body as Json;
      return usage.totals.requests >= 6;
    });
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await target?.close();
  });

  it('shades the outage, the maintenance and the incident on the monitor page', { timeout: 120_000 }, async () => {
    const periods = (await call('GET', `/api/v1/monitors/${monitorId}/periods`)).body as Json;
    const states = (periods.periods as Json[]).map((p) => p.state);
    expect(states).toEqual(expect.arrayContaining(['down', 'maintenance']));
    expect(periods.incidents).toHaveLength(1);

    await page.goto(`${server.origin}/monitors/${monitorId}?period=1h`);
    await settle(page);
    const chart = page.locator('.latency-chart');
    await chart.locator('canvas').first().waitFor();
    // Every period and the incident are drawn as bands on the chart.
    await expect.poll(async () => Number(await chart.getAttribute('data-bands'))).toBe(periods.periods.length + 1);
    expect(await chart.getAttribute('aria-label')).toMatch(
      /down .*maintenance .*1 incident|maintenance .*down .*1 incident/,
    );
    const strip = page.getByTestId('state-strip');
    expect(await strip.locator('rect[data-state="down"]').count()).toBe(1);
    expect(await strip.locator('rect[data-state="maintenance"]').count()).toBeGreaterThanOrEqual(1);
    expect(await strip.locator('rect[data-incident="1"]').count()).toBe(1);
    expect(await strip.locator('rect.up').count()).toBeGreaterThanOrEqual(1);
    // The strip spans the chart's plot area exactly (its times line up with the chart's).
    const aligned = async () => {
      const { left, right } = await stripOffsets(page);
      return Math.abs(left) <= 1 && Math.abs(right) <= 1;
    };
    await expect.poll(aligned).toBe(true);
    const legend = await page.getByTestId('chart-legend').innerText();
    for (const word of ['p95', 'p50', 'Down', 'Degraded', 'Maintenance', 'Paused', 'Incident'])
      expect(legend).toContain(word);
    await page.getByText(/Periods as a table/).click();
    const table = await page.getByTestId('periods-table').innerText();
    expect(table).toContain('Incident #1');
    expect(table).toContain('Down');
    expect(table).toContain('Maintenance');
    expect(await page.evaluate(overflowingFigures)).toEqual([]);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      expect(await violations(page)).toEqual([]);
      await page.screenshot({ path: join(shots, `web-charts-monitor-detail-1280-${scheme}.png`), fullPage: true });
    }
    await page.setViewportSize({ width: 360, height: 800 });
    await page.reload();
    await settle(page);
    await chart.locator('canvas').first().waitFor();
    await expect.poll(aligned).toBe(true);
    expect(await page.evaluate(overflowingFigures)).toEqual([]);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      expect(await violations(page)).toEqual([]);
      await page.screenshot({ path: join(shots, `web-charts-monitor-detail-360-${scheme}.png`), fullPage: true });
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it('draws the API key usage with axes, units, a legend and a table', { timeout: 120_000 }, async () => {
    await page.goto(`${server.origin}/api-keys/${keyId}`);
    await settle(page);
    const chart = page.getByTestId('usage-chart');
    expect(await chart.locator('figcaption').innerText()).toMatch(/Requests per (minute|hour|day), by class/);
    expect(await chart.locator('.usage-y-title').innerText()).toBe('requests');
    expect(await chart.locator('.usage-tick').count()).toBeGreaterThanOrEqual(2);
    expect(await chart.locator('.usage-x span').count()).toBeGreaterThanOrEqual(1);
    expect(await chart.locator('svg title').first().textContent()).toMatch(/\d+ read, \d+ write, \d+ delete/);
    await chart.getByText('Usage as a table').click();
    const totals = await chart.getByTestId('usage-table').locator('tbody td:last-child').allTextContents();
    expect(totals.reduce((n, t) => n + Number(t), 0)).toBeGreaterThanOrEqual(6);
    for (const width of [1280, 360]) {
      await page.setViewportSize({ width, height: width === 360 ? 800 : 900 });
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        expect(await violations(page)).toEqual([]);
        await page.screenshot({ path: join(shots, `web-charts-api-key-${width}-${scheme}.png`), fullPage: true });
      }
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it('keeps the performance report short and its figures inside their cards', { timeout: 120_000 }, async () => {
    for (const width of [1280, 360]) {
      await page.setViewportSize({ width, height: width === 360 ? 800 : 900 });
      await page.goto(`${server.origin}/reports/performance`);
      await settle(page);
      expect(await page.evaluate(overflowingFigures)).toEqual([]);
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        expect(await violations(page)).toEqual([]);
        await page.screenshot({
          path: join(shots, `web-charts-report-performance-${width}-${scheme}.png`),
          fullPage: true,
        });
      }
    }
  });
});
