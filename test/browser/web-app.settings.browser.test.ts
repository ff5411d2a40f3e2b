/**
 * The organization's default region in the web app, against a real `tocsin serve` with two regions configured: the
 * owner picks it on the settings page, it is saved and read back after a reload, and a monitor created without
 * regions runs there.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipWithout } from '../support/services.ts';
import { firstRun, launchChromium, sessionApi, startServe, type WebAppServer } from './web-app.harness.ts';

describe.skipIf(skipWithout('chromium'))('web app settings: default region (sqlite)', () => {
  let server: WebAppServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServe('sqlite', { regions: ['local', 'eu-west'] }), launchChromium()]);
    page = await (await browser.newContext()).newPage();
    await firstRun(page, server.origin);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it(
    'is chosen on the settings page, kept after a reload, and used by a new monitor',
    { timeout: 90_000 },
    async () => {
      await page.goto(`${server.origin}/settings`);
      await page.getByRole('heading', { level: 1, name: 'Organization settings' }).waitFor();
      const select = page.getByLabel('Default region');
      await expect.poll(() => select.locator('option').allTextContents()).toEqual(['local', 'eu-west']);
      expect(await select.inputValue()).toBe('local');

      await select.selectOption('eu-west');
      await page.getByRole('status').getByText('Saved.').waitFor();
      await page.reload();
      await page.getByRole('heading', { level: 1, name: 'Organization settings' }).waitFor();
      await expect.poll(() => page.getByLabel('Default region').inputValue()).toBe('eu-west');

      const api = await sessionApi(page, server.origin);
      const org = await api('GET', '/api/v1/auth/organization');
      expect((org.body as { default_region: string }).default_region).toBe('eu-west');
      const created = await api('POST', '/api/v1/monitors', {
        name: 'No regions chosen',
        type: 'http',
        target: 'http://127.0.0.1:9/',
        interval_seconds: 60,
      });
      expect(created.status).toBe(201);
      expect((created.body as { region_codes: string[] }).region_codes).toEqual(['eu-west']);
    },
  );
});
