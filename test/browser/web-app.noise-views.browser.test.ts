/**
 * Noise control in the web app against a real `tocsin serve` (DECISIONS §16, §17): the monitor editor's `depends_on`
 * picker (search by name or target, two monitors of one name told apart by their targets, chips that remove, the
 * cycle refusal at the field) and the monitor list's status filter `maintenance` (the monitors an active window
 * covers, listed as such; `up` leaves them out).
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipWithout } from '../support/services.ts';
import { firstRun, launchChromium, sessionApi, settle, startServe, type WebAppServer } from './web-app.harness.ts';

describe.skipIf(skipWithout('chromium'))('web app: dependency picker and maintenance filter (sqlite)', () => {
  let server: WebAppServer;
  let browser: Browser;
  let page: Page;
  let call: Awaited<ReturnType<typeof sessionApi>>;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServe('sqlite'), launchChromium()]);
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await firstRun(page, server.origin);
    call = await sessionApi(page, server.origin);
    const create = async (key: string, body: Record<string, unknown>) => {
      const res = await call('POST', '/api/v1/monitors', { interval_seconds: 60, ...body });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      ids[key] = (res.body as { id: string }).id;
    };
    await create('router', { name: 'Edge router', target: 'http://127.0.0.1:9/router' });
    await create('billingEu', { name: 'Billing API', target: 'http://127.0.0.1:9/eu/billing' });
    await create('billingUs', { name: 'Billing API', target: 'http://127.0.0.1:9/us/billing' });
    await create('web', { name: 'Website', target: 'http://127.0.0.1:9/www', tags: ['www'] });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const dependsOn = async (id: string) =>
    ((await call('GET', `/api/v1/monitors/${id}`)).body as { config: { depends_on?: string[] } }).config.depends_on ??
    [];

  async function openEditor(id: string) {
    await page.goto(`${server.origin}/monitors/${id}/edit`);
    await settle(page);
    const advanced = page.locator('details.advanced');
    if ((await advanced.getAttribute('open')) === null) await advanced.locator('summary').click();
    return page.locator('[data-field="config.depends_on"]');
  }

  it('chooses parents by name, tells same-named monitors apart, removes chips', { timeout: 90_000 }, async () => {
    const field = await openEditor(ids.billingEu!);
    const search = field.getByRole('combobox', { name: 'Depends on' });
    // The same name twice: the other "Billing API" is offered with its target; the one edited is not offered.
    await search.fill('billing');
    const offers = field.getByRole('option');
    await expect.poll(() => offers.allTextContents()).toEqual(['Billing API http://127.0.0.1:9/us/billing']);
    // By target too, and with the keyboard: Enter takes the highlighted match (and does not submit the form).
    await search.fill('/router');
    await field.getByRole('option', { name: /Edge router/ }).waitFor();
    await search.press('Enter');
    await field.getByRole('listitem').filter({ hasText: 'Edge router' }).waitFor();
    await search.fill('billing');
    await field.getByRole('option', { name: /us\/billing/ }).click();
    const chips = field.getByRole('list', { name: 'Depends on: chosen' }).getByRole('listitem');
    expect(await chips.allTextContents()).toEqual([
      'Edge routerhttp://127.0.0.1:9/router×',
      'Billing APIhttp://127.0.0.1:9/us/billing×',
    ]);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.waitForURL(new RegExp(`/monitors/${ids.billingEu}$`));
    expect(await dependsOn(ids.billingEu!)).toEqual([ids.router, ids.billingUs]);

    // Removing a chip removes the parent.
    const again = await openEditor(ids.billingEu!);
    await again.getByRole('button', { name: 'Remove Billing API' }).click();
    expect(await again.getByRole('list', { name: 'Depends on: chosen' }).getByRole('listitem').count()).toBe(1);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.waitForURL(new RegExp(`/monitors/${ids.billingEu}$`));
    expect(await dependsOn(ids.billingEu!)).toEqual([ids.router]);
  });

  it('shows the cycle refusal at the field and saves nothing', { timeout: 90_000 }, async () => {
    // Billing (EU) depends on the router: the router depending on Billing (EU) would close a cycle.
    const field = await openEditor(ids.router!);
    const search = field.getByRole('combobox', { name: 'Depends on' });
    await search.fill('eu/billing');
    await field.getByRole('option', { name: /eu\/billing/ }).click();
    await page.getByRole('button', { name: 'Save changes' }).click();
    const issue = field.getByRole('alert');
    await issue.waitFor();
    expect(await issue.textContent()).toMatch(/cycle/i);
    expect(await search.getAttribute('aria-invalid')).toBe('true');
    expect(page.url()).toMatch(/\/edit$/);
    expect(await dependsOn(ids.router!)).toEqual([]);
  });

  it('filters the monitor list on maintenance, as the rows show it', { timeout: 90_000 }, async () => {
    const now = Date.now();
    const w = await call('POST', '/api/v1/maintenance-windows', {
      name: 'Website move',
      tags: ['www'],
      schedule: {
        type: 'once',
        starts_at: new Date(now - 60_000).toISOString(),
        ends_at: new Date(now + 3_600_000).toISOString(),
      },
    });
    expect(w.status, JSON.stringify(w.body)).toBe(201);
    await page.goto(`${server.origin}/monitors`);
    await settle(page);
    await page.getByRole('combobox', { name: 'Status', exact: true }).selectOption('maintenance');
    await page.waitForURL(/status=maintenance/);
    const rows = page.getByRole('row').filter({ has: page.getByRole('link') });
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(1);
    expect(await rows.first().textContent()).toContain('Website');
    expect((await rows.first().textContent())?.toLowerCase()).toContain('maintenance');
    // Another status leaves it out.
    await page.getByRole('combobox', { name: 'Status', exact: true }).selectOption('pending');
    await page.waitForURL(/status=pending/);
    await expect.poll(() => rows.allTextContents(), { timeout: 15_000 }).toHaveLength(3);
    expect((await rows.allTextContents()).join(' ')).not.toContain('Website');
  });
});
