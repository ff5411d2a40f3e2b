/**
 * The server-rendered pages in a real Chromium over a real port: `/docs` shows the OpenAPI description from local
 * assets only, and a public status page works without JavaScript on a phone-sized screen.
 */
import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MonitorTransition } from '../../src/modules/incidents/index.ts';
import { bearer, createTestApp, type TestApp, type TestOrg } from '../support/app.ts';
import { skipWithout, testServices } from '../support/services.ts';

describe.skipIf(skipWithout('chromium'))('pages in Chromium', () => {
  let t: TestApp;
  let org: TestOrg;
  let browser: Browser;
  let origin: string;

  beforeAll(async () => {
    t = await createTestApp();
    org = await t.createOrg();
    await t.tocsin.app.listen({ port: 0, host: '127.0.0.1' });
    origin = `http://127.0.0.1:${(t.tocsin.app.server.address() as AddressInfo).port}`;
    browser = await chromium.launch({
      executablePath: testServices.chromiumPath!,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
      ],
    });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  // swagger-ui (5.34, since its "virtualization for operations" change) mounts only the operations near the viewport
  // once a document has 150 or more tags and operations together (this one has over 170): the others are mounted as
  // the page scrolls to them. So "every operation renders" is read by scrolling the whole page, as a reader does.
  it('/docs renders every operation of the API from this server alone', { timeout: 240_000 }, async () => {
    const page = await browser.newPage();
    const requested: string[] = [];
    const errors: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${origin}/docs`);
    await page.locator('.opblock').first().waitFor({ timeout: 60_000 });

    await expect.poll(() => page.locator('.info .title').first().textContent()).toContain('Tocsin API');
    const doc = (await t.tocsin.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json() as {
      paths: Record<string, Record<string, { operationId?: string; tags?: string[] }>>;
      webhooks: Record<string, Record<string, unknown>>;
    };
    // swagger-ui lists the document's outgoing webhooks (OpenAPI 3.1 `webhooks`) as operations too.
    const documented = [...Object.entries(doc.paths), ...Object.entries(doc.webhooks)].flatMap(([path, item]) =>
      Object.keys(item)
        .filter((method) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
        .map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(documented.length).toBeGreaterThan(20);
    const renderedNow = () =>
      page
        .locator('.opblock-summary')
        .evaluateAll((nodes) =>
          nodes.map(
            (node) =>
              `${node.querySelector('.opblock-summary-method')?.textContent} ${node.querySelector('.opblock-summary-path')?.getAttribute('data-path')}`,
          ),
        );
    // Half a screen at a time (swagger-ui keeps a few rows beyond the screen mounted), down to the end of the page.
    const rendered = new Set(await renderedNow());
    for (let step = 0; step < 1_000; step++) {
      const atEnd = (await page.evaluate(`(async () => {
        window.scrollBy(0, window.innerHeight / 2);
        await new Promise((drawn) => requestAnimationFrame(() => requestAnimationFrame(drawn)));
        return window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 1;
      })()`)) as boolean;
      // swagger-ui mounts the rows of the new position a render later, later still on a loaded machine: read until
      // two reads 200 ms apart agree.
      let now = await renderedNow();
      for (let read = 0; read < 25; read++) {
        await new Promise((wait) => setTimeout(wait, 200));
        const again = await renderedNow();
        if (again.join('\n') === now.join('\n')) break;
        now = again;
      }
      for (const operation of now) rendered.add(operation);
      if (atEnd) break;
    }
    expect([...rendered].sort()).toEqual(documented.sort());

    // Opening one shows its parameters and the scope it needs. swagger-ui mounts only the rows near the screen and
    // mounts them a render after the scroll (later still on a loaded machine), so the row is reached by its deep link,
    // which scrolls to it and opens it; then it is closed and opened again by clicking its summary, as a reader does.
    const reader = await browser.newPage();
    reader.on('pageerror', (error) => errors.push(error.message));
    await reader.goto(`${origin}/docs#/monitors/getMonitor`);
    const monitorRead = reader
      .locator('.opblock', {
        has: reader.locator('.opblock-summary-path[data-path="/api/v1/monitors/{id}"]'),
      })
      .filter({ has: reader.locator('.opblock-summary-method', { hasText: /^GET$/ }) });
    await monitorRead.locator('.opblock-body').waitFor({ timeout: 60_000 });
    await monitorRead.locator('.opblock-summary-control').click();
    await expect.poll(() => monitorRead.locator('.opblock-body').count(), { timeout: 10_000 }).toBe(0);
    await monitorRead.locator('.opblock-summary-control').click();
    await expect.poll(() => monitorRead.textContent(), { timeout: 10_000 }).toMatch(/monitors:read/);
    await reader.close();

    // A deep link to an operation far down the list (not mounted at first) scrolls to it and opens it.
    const [lastPath, lastItem] = Object.entries(doc.paths).findLast(([, item]) => item.get?.operationId)!;
    const last = lastItem.get!;
    const linked = await browser.newPage();
    linked.on('pageerror', (error) => errors.push(error.message));
    await linked.goto(`${origin}/docs#/${encodeURIComponent(last.tags![0]!)}/${last.operationId}`);
    const opened = linked.locator('.opblock.is-open');
    await opened.waitFor({ timeout: 60_000 });
    expect(await opened.locator('.opblock-summary-path').getAttribute('data-path')).toBe(lastPath);
    await expect.poll(() => opened.isVisible(), { timeout: 10_000 }).toBe(true);
    await linked.close();

    expect(errors).toEqual([]);
    for (const url of requested) expect(url.startsWith(`${origin}/`) || url.startsWith('data:'), url).toBe(true);
    await page.close();
  });

  it(
    'a public status page works without JavaScript on a 360 px screen and shows a down monitor as degraded',
    { timeout: 60_000 },
    async () => {
      const create = async (name: string) => {
        const res = await t.tocsin.app.inject({
          method: 'POST',
          url: '/api/v1/monitors',
          headers: bearer(org.apiKey),
          payload: { name, target: 'https://example.com' },
        });
        expect(res.statusCode, res.body).toBe(201);
        return res.json() as { id: string; name: string };
      };
      const api = await create('Public API with a rather long name that must wrap on a phone');
      const web = await create('Website');
      const created = await t.tocsin.app.inject({
        method: 'POST',
        url: '/api/v1/status-pages',
        headers: bearer(org.apiKey),
        payload: { slug: 'acme-browser', title: 'Acme status', monitor_ids: [api.id, web.id] },
      });
      expect(created.statusCode, created.body).toBe(201);
      const now = t.clock.now();
      await t.tocsin.services.monitors.recordStatus(web.id, 'up', now);
      await t.tocsin.services.monitors.recordStatus(api.id, 'down', now);
      const transition: MonitorTransition = {
        organizationId: org.organizationId,
        monitorId: api.id,
        monitorName: api.name,
        from: 'up',
        to: 'down',
        at: now,
        cause: 'HTTP 503',
        executionId: null,
      };
      await t.tocsin.database.transaction((tx) => t.tocsin.services.incidents.handleMonitorTransition(tx, transition));

      const context = await browser.newContext({
        javaScriptEnabled: false,
        viewport: { width: 360, height: 740 },
        deviceScaleFactor: 2,
        isMobile: true,
      });
      const page = await context.newPage();
      const response = await page.goto(`${origin}/status/acme-browser`);
      expect(response?.status()).toBe(200);

      await expect.poll(() => page.locator('h1').allTextContents()).toEqual(['Acme status']);
      expect(await page.locator('html').getAttribute('lang')).toBeTruthy();
      expect(await page.getByText('Partial outage').isVisible()).toBe(true);
      const systems = page.locator('li.monitor');
      expect(await systems.count()).toBe(2);
      expect(await systems.filter({ hasText: api.name }).locator('.st').textContent()).toBe('! Degraded');
      expect(await systems.filter({ hasText: 'Website' }).locator('.st').textContent()).toBe('✓ Operational');
      expect(await page.getByText('Current incidents').isVisible()).toBe(true);
      expect(await page.getByText(`${api.name} is down`).isVisible()).toBe(true);

      // Nothing wider than the screen: no sideways scrolling on a phone.
      const widths = await page
        .locator('html')
        .evaluate((root) => ({ scroll: root.scrollWidth, client: root.clientWidth }));
      expect(widths.scroll).toBeLessThanOrEqual(widths.client);
      // The uptime bars fit and each says what it shows, for pointer and screen-reader users alike.
      const bars = page.locator('li.none');
      expect(await bars.count()).toBe(180);
      const lastBar = bars.last();
      expect(await lastBar.textContent()).toMatch(/^\d{4}-\d{2}-\d{2}: no data$/);
      const box = await lastBar.boundingBox();
      expect(box).not.toBeNull();
      expect(box!.x + box!.width).toBeLessThanOrEqual(360);
      await context.close();
    },
  );
});
