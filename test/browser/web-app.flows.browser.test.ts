/**
 * The web app end to end in Chromium against a real `tocsin serve`: first run → a monitor from a URL alone → its
 * target fails → the incident shows up without a reload → acknowledge → the target recovers → resolved; and an
 * alert link opened cold lands on its incident after sign-in. On SQLite and PostgreSQL.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { testDialects } from '../support/databases.ts';
import { skipWithout } from '../support/services.ts';
import {
  chromiumOnce,
  firstRun,
  OWNER,
  signIn,
  startServe,
  startTarget,
  type SwitchableTarget,
  type WebAppServer,
} from './web-app.harness.ts';

const chromium = chromiumOnce();
afterAll(() => chromium.close());

// The databases' suites run at the same time, each with its own server, target and browser contexts in the file's
// one Chromium; the cases of one database run one after the other ({ concurrent: false }), in this order.
describe.skipIf(skipWithout('chromium')).concurrent.each(testDialects())('web app flows (%s)', (dialect) => {
  let server: WebAppServer;
  let target: SwitchableTarget;
  let browser: Browser;
  let incidentPath = '';

  beforeAll(async () => {
    [server, target, browser] = await Promise.all([startServe(dialect), startTarget(), chromium.get()]);
  }, 90_000);
  afterAll(async () => {
    await server?.stop();
    await target?.close();
  });

  it(
    'first run → monitor from a URL → down → incident live → acknowledge → recovers → resolved',
    { concurrent: false, timeout: 120_000 },
    async ({ expect }) => {
      const context = await browser.newContext();
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await firstRun(page, server.origin);
      // The page follows the API's event stream (not polling).
      await page.getByRole('status').filter({ hasText: 'Live' }).waitFor();

      // A URL alone is enough.
      await page.getByRole('link', { name: 'Monitors' }).click();
      await page.getByRole('link', { name: 'New monitor' }).click();
      await page.getByLabel('Target').fill(target.url);
      await page.getByRole('button', { name: 'Create monitor' }).click();
      await page.waitForURL(/\/monitors\/mon_[0-9a-z]+$/);
      const monitorPath = new URL(page.url()).pathname;
      await expect.poll(() => page.locator('h1').textContent(), { timeout: 15_000 }).toBeTruthy();
      // It turns up in the list, and is checked (up) by the engine.
      await page.getByRole('link', { name: 'Monitors' }).click();
      const row = page.locator('table.monitors tbody tr', { has: page.locator(`a[href="${monitorPath}"]`) });
      await row.waitFor();
      await expect.poll(() => row.locator('[data-status]').getAttribute('data-status'), { timeout: 30_000 }).toBe('up');

      // The target fails: the incident list shows the incident without a reload.
      await page.getByRole('link', { name: 'Incidents' }).click();
      await page.getByRole('heading', { level: 1, name: 'Incidents' }).waitFor();
      await expect.poll(() => page.getByText('No incidents').count(), { timeout: 15_000 }).toBe(1);
      target.up = false;
      const incidentLink = page.locator('table a[href^="/incidents/inc_"]').first();
      await incidentLink.waitFor({ timeout: 45_000 });
      incidentPath = (await incidentLink.getAttribute('href'))!;
      await incidentLink.click();
      await page.getByRole('button', { name: 'Acknowledge' }).click();
      await expect
        .poll(() => page.locator('.page-head [data-status]').getAttribute('data-status'), { timeout: 15_000 })
        .toBe('acknowledged');
      await expect
        .poll(() => page.locator('.timeline li[data-type="acknowledged"]').count(), { timeout: 15_000 })
        .toBe(1);

      // The target recovers: the open page turns resolved by itself.
      target.up = true;
      await expect
        .poll(() => page.locator('.page-head [data-status]').getAttribute('data-status'), { timeout: 60_000 })
        .toBe('resolved');
      await expect.poll(() => page.locator('.timeline li[data-type="resolved"]').count(), { timeout: 15_000 }).toBe(1);
      expect(errors).toEqual([]);
      await context.close();
    },
  );

  it(
    'an alert link opened cold asks for sign-in and then lands on the incident',
    { concurrent: false, timeout: 60_000 },
    async ({ expect }) => {
      expect(incidentPath).toMatch(/^\/incidents\/inc_/);
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(`${server.origin}${incidentPath}`);
      await page.waitForURL(/\/sign-in\?next=/);
      await signIn(page, OWNER.email, 'not the password');
      await page
        .getByRole('alert')
        .filter({ hasText: /password is wrong/ })
        .waitFor();
      await signIn(page, OWNER.email, OWNER.password);
      await page.waitForURL(`${server.origin}${incidentPath}`);
      await expect.poll(() => page.locator('h1').textContent(), { timeout: 15_000 }).toMatch(/^#1 /);
      await context.close();
    },
  );

  it('falls back to polling when the event stream is unavailable', { concurrent: false, timeout: 60_000 }, async () => {
    const context = await browser.newContext();
    await context.route('**/api/v1/events/stream', (route) => route.fulfill({ status: 503, body: '' }));
    const page = await context.newPage();
    await page.goto(`${server.origin}/sign-in`);
    await signIn(page, OWNER.email, OWNER.password);
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    await page.getByRole('status').filter({ hasText: 'Polling' }).waitFor();
    await context.close();
  });
});
