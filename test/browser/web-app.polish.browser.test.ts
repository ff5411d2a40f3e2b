/**
 * The web app's finish in Chromium against a real `tocsin serve`: destination types read as the products people
 * know (never the API's wire names), an unknown address answers 404 with the app's "Page not found", a completed
 * action is said in a toast inside a polite live region, the header folds into a Menu button at 360 px (and the
 * page's heading takes focus after a move), and "Duplicate" opens a prefilled create form. axe finds nothing.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipWithout } from '../support/services.ts';
import {
  firstRun,
  launchChromium,
  seedThroughSession,
  sessionApi,
  settle,
  startReceiver,
  startServe,
  startTarget,
  type Receiver,
  type SwitchableTarget,
  type WebAppServer,
} from './web-app.harness.ts';

const WIRE_NAMES = /chatapp\d_|oncall_pager|incident_tool\d|generic_webhook|integration_key/;

async function axeViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations.map((v) => `${v.id} (${v.impact}) ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

describe.skipIf(skipWithout('chromium'))('web app finish (sqlite)', () => {
  let server: WebAppServer;
  let up: SwitchableTarget;
  let down: SwitchableTarget;
  let receiver: Receiver;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let ids: Awaited<ReturnType<typeof seedThroughSession>>;

  beforeAll(async () => {
    [server, up, down, receiver, browser] = await Promise.all([
      startServe('sqlite'),
      startTarget(),
      startTarget(),
      startReceiver(),
      launchChromium(),
    ]);
    down.up = false;
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    await firstRun(page, server.origin);
    ids = await seedThroughSession(page, server.origin, { up: up.url, down: down.url, hook: receiver.url });
    const call = await sessionApi(page, server.origin);
    const pager = await call('POST', '/api/v1/auth/organization/webhooks', {
      type: 'oncall_pager1',
      name: 'On-call',
      config: { integration_key: 'a'.repeat(32) },
    });
    expect(pager.status).toBe(201);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await Promise.all([up?.close(), down?.close(), receiver?.close()]);
  });

  it('names destination types and their fields as people know them', { timeout: 60_000 }, async () => {
    await page.goto(`${server.origin}/destinations`);
    await settle(page);
    const rows = page.locator('tbody tr');
    expect(await rows.filter({ hasText: 'Ops webhook' }).locator('.destination-type').textContent()).toBe(' Webhook');
    expect(await rows.filter({ hasText: 'On-call' }).locator('.destination-type').textContent()).toBe(' PagerDuty');
    expect(await page.locator('main').innerText()).not.toMatch(WIRE_NAMES);
    // Each type has its icon (drawn, hidden from screen readers: the name says it).
    expect(await rows.first().locator('svg.type-icon[aria-hidden="true"]').count()).toBe(1);

    await page.goto(`${server.origin}/destinations/new`);
    await settle(page);
    const type = page.getByLabel('Type');
    const labels = await type.locator('option').allTextContents();
    expect(labels).toEqual(
      expect.arrayContaining(['Slack (app)', 'Discord', 'Telegram', 'PagerDuty', 'Opsgenie', 'Email', 'Webhook']),
    );
    expect(labels.join(' ')).not.toMatch(WIRE_NAMES);
    await type.selectOption('oncall_pager1');
    await page.getByLabel('Integration key').waitFor();
    expect(await page.locator('main').innerText()).not.toMatch(WIRE_NAMES);
    expect(await axeViolations(page)).toEqual([]);

    // The scheduled report's destination picker names them too.
    await page.goto(`${server.origin}/scheduled-reports/new`);
    await settle(page);
    await page.locator('.pick-list').getByText('PagerDuty').waitFor();
    expect(await page.locator('.pick-list').innerText()).not.toMatch(WIRE_NAMES);
  });

  it('answers an unknown address with 404 and a "Page not found" page', { timeout: 60_000 }, async () => {
    const res = await page.goto(`${server.origin}/nope`);
    expect(res?.status()).toBe(404);
    await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
    expect(await page.locator('body').innerText()).not.toContain('"error"');
    expect(await axeViolations(page)).toEqual([]);
    // Signed out, it still says not found (no detour through sign-in).
    const visitor = await browser.newContext();
    const tab = await visitor.newPage();
    const cold = await tab.goto(`${server.origin}/no/such/page`);
    expect(cold?.status()).toBe(404);
    await tab.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
    expect(tab.url()).toBe(`${server.origin}/no/such/page`);
    await visitor.close();
    // The API keeps its envelope.
    const api = await page.request.get(`${server.origin}/api/v1/nope`, { headers: { accept: 'text/html' } });
    expect(api.status()).toBe(404);
    expect(((await api.json()) as { error: { code: string } }).error.code).toBe('not_found');
  });

  it('says a completed action in a toast inside a polite live region', { timeout: 60_000 }, async () => {
    await page.goto(`${server.origin}/monitors/${ids.monitor}`);
    await settle(page);
    const region = page.locator('.toasts');
    expect(await region.getAttribute('aria-live')).toBe('polite');
    expect(await region.getAttribute('role')).toBe('status');
    await page.getByRole('button', { name: 'Pause' }).click();
    await region.getByText('Monitor paused.').waitFor();
    await page.getByRole('button', { name: 'Resume' }).click();
    await region.getByText('Monitor resumed.').waitFor();
    await region.getByRole('button', { name: 'Dismiss' }).first().click();
    await expect.poll(() => region.getByTestId('toast').count()).toBe(1);
  });

  it(
    'folds the header into a Menu button at 360 px and focuses the new page heading',
    { timeout: 90_000 },
    async () => {
      const phone = await browser.newContext({ viewport: { width: 360, height: 740 } });
      const tab = await phone.newPage();
      await tab.goto(`${server.origin}/sign-in`);
      await tab.getByLabel('Email').fill('olive@example.com');
      await tab.getByLabel('Password').fill('correct horse battery');
      await tab.getByRole('button', { name: 'Sign in' }).click();
      await tab.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
      const header = tab.locator('header.topbar');
      const closedHeight = (await header.boundingBox())!.height;
      expect(closedHeight).toBeLessThan(80);
      const menu = tab.getByRole('button', { name: 'Menu' });
      expect(await menu.getAttribute('aria-expanded')).toBe('false');
      expect(await tab.getByRole('link', { name: 'Incidents', exact: true }).isVisible()).toBe(false);
      await menu.click();
      expect(await menu.getAttribute('aria-expanded')).toBe('true');
      const incidents = tab.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Incidents' });
      expect(await incidents.isVisible()).toBe(true);
      expect(await axeViolations(tab)).toEqual([]);
      await incidents.click();
      await tab.getByRole('heading', { level: 1, name: 'Incidents' }).waitFor();
      expect(await menu.getAttribute('aria-expanded')).toBe('false');
      await expect
        .poll(() =>
          tab.evaluate(
            () =>
              (globalThis as unknown as { document: { activeElement: { tagName: string } | null } }).document
                .activeElement?.tagName,
          ),
        )
        .toBe('H1');
      // No page is wider than the phone.
      for (const path of ['/', '/monitors', `/monitors/${ids.monitor}`, '/destinations', '/nope']) {
        await tab.goto(`${server.origin}${path}`);
        await settle(tab);
        const overflow = await tab.evaluate(() => {
          const doc = (
            globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }
          ).document;
          return doc.documentElement.scrollWidth - doc.documentElement.clientWidth;
        });
        expect(overflow, path).toBeLessThanOrEqual(0);
      }
      await phone.close();
    },
  );

  it('duplicates a monitor through a prefilled create form', { timeout: 60_000 }, async () => {
    await page.goto(`${server.origin}/monitors/${ids.monitor}`);
    await settle(page);
    await page.getByRole('link', { name: 'Duplicate' }).click();
    await page.getByRole('heading', { level: 1, name: 'Duplicate Website' }).waitFor();
    await expect
      .poll(() => page.getByRole('textbox', { name: 'Name', exact: true }).inputValue())
      .toBe('Website (copy)');
    expect(await page.getByRole('textbox', { name: 'Target', exact: true }).inputValue()).toBe(up.url);
    await page.getByRole('button', { name: 'Create monitor' }).click();
    await page.getByRole('heading', { level: 1, name: 'Website (copy)' }).waitFor();
    await page.locator('.toasts').getByText('Saved.').waitFor();
    const list = await page.request.get(`${server.origin}/api/v1/monitors?limit=200`);
    const monitors = ((await list.json()) as { data: { name: string; target: string; tags: string[] }[] }).data;
    const copy = monitors.find((m) => m.name === 'Website (copy)');
    expect(copy).toMatchObject({ target: up.url, tags: ['web', 'public'] });
    expect(monitors.filter((m) => m.name === 'Website')).toHaveLength(1);
  });
});
