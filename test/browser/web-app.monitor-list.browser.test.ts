/**
 * Issue 36 item 7, in Chromium against a real `tocsin serve` (SQLite): the monitors list asks the server for the
 * first page of summaries only (not every monitor), fetches the next pages as the view nears them, lets the server
 * sort and search, and a bulk action on "all matching" reaches the rows never loaded.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipWithout } from '../support/services.ts';
import { firstRun, launchChromium, sessionApi, startServe, type WebAppServer } from './web-app.harness.ts';

const COUNT = 350;

describe.skipIf(skipWithout('chromium'))('the monitors list loads only the pages it shows (sqlite)', () => {
  let server: WebAppServer;
  let browser: Browser;
  let page: Page;
  let call: Awaited<ReturnType<typeof sessionApi>>;
  const lists: URL[] = [];

  beforeAll(async () => {
    server = await startServe('sqlite');
    browser = await launchChromium();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    await firstRun(page, server.origin);
    call = await sessionApi(page, server.origin);
    // Eight at a time: a loaded machine made 350 one-by-one creations outlast the hook.
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < COUNT) {
          const i = next++;
          const res = await call('POST', '/api/v1/monitors', {
            name: `${i % 2 ? 'Alpha' : 'Beta'} ${String(i).padStart(3, '0')}`,
            target: `https://svc-${i}.example.com/health`,
            paused: true,
          });
          expect(res.status).toBe(201);
        }
      }),
    );
    page.on('request', (r) => {
      const url = new URL(r.url());
      if (url.pathname === '/api/v1/monitors' || url.pathname === '/api/v1/monitors/summaries') lists.push(url);
    });
  }, 400_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const names = () => page.locator('table.monitors tbody tr .name-cell a');

  it('the first visit asks for one page of summaries and draws its rows', { timeout: 60_000 }, async () => {
    lists.length = 0;
    await page.goto(`${server.origin}/monitors?sort=name`);
    await page.getByText(`${COUNT} monitors`, { exact: true }).waitFor();
    await names().first().waitFor();
    await page.waitForTimeout(800);
    expect(lists.map((u) => u.pathname)).toEqual(['/api/v1/monitors/summaries']);
    expect(lists[0]!.searchParams.get('sort')).toBe('name');
    expect(Number(lists[0]!.searchParams.get('limit'))).toBeLessThanOrEqual(100);
    // Sorted by the server: Alpha 001, Alpha 003, …
    expect(await names().first().textContent()).toBe('Alpha 001');
    // The scrollbar has the whole list's length: the table is as tall as all its rows.
    const height = await page
      .locator('table.monitors')
      .evaluate((t) => (t as unknown as { offsetHeight: number }).offsetHeight);
    expect(height).toBeGreaterThan(COUNT * 50);
  });

  it('scrolling to the end fetches the pages on the way, then the last rows', { timeout: 60_000 }, async () => {
    lists.length = 0;
    for (let i = 0; i < 40; i++) {
      await page.mouse.wheel(0, 1200);
      await page.waitForTimeout(50);
    }
    await page.getByRole('link', { name: 'Beta 348', exact: true }).waitFor({ timeout: 20_000 });
    // The three pages after the first, each asked for once by the scrolling; a refresh of the cached pages (the
    // 15 s poll while the event stream is not connected, a resync) may ask for one again, so pages are counted by
    // their cursor.
    const cursors = new Set(lists.flatMap((u) => u.searchParams.getAll('cursor')));
    expect(cursors.size).toBeGreaterThanOrEqual(1);
    expect(cursors.size).toBeLessThanOrEqual(3);
    expect(lists.every((u) => u.pathname === '/api/v1/monitors/summaries')).toBe(true);
    expect(lists.filter((u) => !u.searchParams.has('cursor')).length).toBeLessThanOrEqual(1);
  });

  it(
    'a search is the server\'s, and "select all" acts on every match, loaded or not',
    { timeout: 120_000 },
    async () => {
      lists.length = 0;
      await page.goto(`${server.origin}/monitors?q=alpha&sort=name`);
      await page.getByText(`${COUNT / 2} monitors`, { exact: true }).waitFor();
      expect(lists[0]!.searchParams.get('q')).toBe('alpha');
      expect(lists).toHaveLength(1);
      await page.getByLabel('Select all monitors').check();
      const bar = page.getByRole('region', { name: 'Bulk actions' });
      await bar.getByText(`All ${COUNT / 2} matching monitors selected`).waitFor();
      await bar.getByPlaceholder('tag').fill('picked');
      await bar.getByRole('button', { name: 'Add tag' }).click();
      // The bar goes away with the selection when the action is done; the tags are read back through the API.
      const taggedTotal = async () =>
        ((await call('GET', '/api/v1/monitors/summaries?tag=picked&limit=1')).body as { total: number }).total;
      await expect.poll(taggedTotal, { timeout: 90_000, interval: 1000 }).toBe(COUNT / 2);
      await bar.waitFor({ state: 'detached', timeout: 30_000 });
      const betas = await call('GET', '/api/v1/monitors/summaries?tag=picked&q=beta&limit=1');
      expect((betas.body as { total: number }).total).toBe(0);
    },
  );
});
