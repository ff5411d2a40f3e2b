/**
 * Dependencies (DECISIONS §17) in the web app against a real `tocsin serve` whose engine checks loopback targets: a
 * router and a service behind it go down; the monitor list shows the service "blocked by" the router and the
 * service's incident page shows the router it was held by and the router's incident.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipWithout } from '../support/services.ts';
import {
  firstRun,
  launchChromium,
  sessionApi,
  startServe,
  startTarget,
  type SwitchableTarget,
  type WebAppServer,
} from './web-app.harness.ts';

describe.skipIf(skipWithout('chromium'))('web app: dependencies (sqlite)', () => {
  let server: WebAppServer;
  let browser: Browser;
  let page: Page;
  let router: SwitchableTarget;
  let service: SwitchableTarget;

  beforeAll(async () => {
    [server, browser, router, service] = await Promise.all([
      startServe('sqlite'),
      launchChromium(),
      startTarget(),
      startTarget(),
    ]);
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await firstRun(page, server.origin);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await router?.close();
    await service?.close();
  });

  it('shows a held child as blocked by its parent in the list and on its incident', { timeout: 90_000 }, async () => {
    const api = await sessionApi(page, server.origin);
    const create = async (body: Record<string, unknown>) => {
      const res = await api('POST', '/api/v1/monitors', body);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return (res.body as { id: string }).id;
    };
    // The router's outage is confirmed at its first failing check, the service's at its third: the router is down
    // first, as it would be with the service failing because of it.
    const routerId = await create({
      name: 'Edge router',
      target: router.url,
      interval_seconds: 1,
      config: { failure_threshold: 1 },
    });
    const serviceId = await create({
      name: 'Billing API',
      target: service.url,
      interval_seconds: 1,
      config: { failure_threshold: 3, depends_on: [routerId] },
    });
    const status = async (id: string) =>
      ((await api('GET', `/api/v1/monitors/${id}`)).body as { status: string }).status;
    await expect.poll(() => status(serviceId), { timeout: 30_000 }).toBe('up');
    router.up = false;
    service.up = false;
    await expect.poll(() => status(serviceId), { timeout: 30_000 }).toBe('down');

    await page.goto(`${server.origin}/monitors`);
    const row = page.getByRole('row').filter({ hasText: 'Billing API' });
    await row.getByText('blocked by Edge router').waitFor();
    const routerRow = page
      .getByRole('row')
      .filter({ has: page.getByRole('link', { name: 'Edge router', exact: true }) });
    expect(await routerRow.textContent()).not.toContain('blocked by');

    const incidents = (await api('GET', `/api/v1/incidents?monitor_id=${serviceId}`)).body as {
      data: Array<{ id: string; suppressed_by: string }>;
    };
    const held = incidents.data[0]!;
    await page.goto(`${server.origin}/incidents/${held.id}`);
    const facts = page.locator('.blocked-by');
    await facts.getByRole('link', { name: 'Edge router' }).waitFor();
    expect(await facts.getByRole('link', { name: 'its incident' }).getAttribute('href')).toBe(
      `/incidents/${held.suppressed_by}`,
    );
    await facts.getByText('alert held until the parents recover').waitFor();
    await page.getByText('Alert held: Edge router is down.').waitFor();
    await page.screenshot({ path: '/tmp/dependencies.incident.png', fullPage: true });
  });
});
