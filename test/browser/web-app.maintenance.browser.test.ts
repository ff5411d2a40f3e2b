/**
 * The maintenance windows pages against a real `tocsin serve` (DECISIONS §16): the owner creates a window in the web
 * app (the API's refusal shown at its field first), previews the monitors it covers by tag before saving, sees it in
 * progress in the list and on the monitor's page, and ends it early; axe finds no serious or critical violation.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipWithout } from '../support/services.ts';
import { firstRun, launchChromium, sessionApi, startServe, type WebAppServer } from './web-app.harness.ts';

/** An instant as a datetime-local value on the UTC clock. */
const utcInput = (ms: number) => new Date(ms).toISOString().slice(0, 16);

describe.skipIf(skipWithout('chromium'))('web app: maintenance windows (sqlite)', () => {
  let server: WebAppServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServe('sqlite'), launchChromium()]);
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await firstRun(page, server.origin);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it(
    'creates a window with a preview of what it covers, shows it in progress and ends it',
    { timeout: 90_000 },
    async () => {
      const call = await sessionApi(page, server.origin);
      const made = await call('POST', '/api/v1/monitors', {
        name: 'Checkout',
        target: 'http://127.0.0.1:9/health',
        interval_seconds: 60,
        tags: ['shop'],
      });
      expect(made.status).toBe(201);
      const monitorId = (made.body as { id: string }).id;
      await call('POST', '/api/v1/monitors', { name: 'Blog', target: 'http://127.0.0.1:9/blog', interval_seconds: 60 });

      await page.goto(`${server.origin}/maintenance-windows`);
      await page.getByRole('heading', { level: 1, name: 'Maintenance windows' }).waitFor();
      await page.getByText('No maintenance windows yet.').waitFor();
      await page.getByRole('link', { name: 'New maintenance window' }).click();
      await page.getByRole('heading', { level: 1, name: 'New maintenance window' }).waitFor();

      const now = Date.now();
      await page.getByLabel('Name').fill('Shop database upgrade');
      await page.getByLabel('Time zone').selectOption('UTC');
      await page.getByLabel('Starts').fill(utcInput(now - 10 * 60_000));
      await page.getByLabel('Ends').fill(utcInput(now - 20 * 60_000)); // before the start: refused at its field
      await page.getByLabel('Tags').fill('shop');
      await page.getByRole('button', { name: 'Preview' }).click();
      const preview = page.getByTestId('preview');
      await preview.getByRole('link', { name: 'Checkout' }).waitFor();
      expect(await preview.getByRole('listitem').count()).toBe(1);

      await page.getByRole('button', { name: 'Create maintenance window' }).click();
      await page.locator('[data-field="schedule.ends_at"]').getByText('must be after schedule.starts_at').waitFor();
      await page.getByLabel('Ends').fill(utcInput(now + 60 * 60_000));
      await page.getByRole('button', { name: 'Create maintenance window' }).click();
      await page.waitForURL(/\/maintenance-windows\/mnt_/);
      await expect.poll(() => page.getByTestId('occurrence').textContent()).toContain('In progress');

      await page.goto(`${server.origin}/monitors/${monitorId}`);
      await page.getByTestId('next-maintenance').getByText('Shop database upgrade').waitFor();
      expect(await page.getByTestId('next-maintenance').textContent()).toContain('In maintenance');

      await page.goto(`${server.origin}/maintenance-windows`);
      const row = page.getByRole('row').filter({ hasText: 'Shop database upgrade' });
      await row.getByText('In progress').waitFor();
      expect(await row.textContent()).toContain('tags shop');
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        const result = await new AxeBuilder({ page }).analyze();
        const bad = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
        expect(bad.map((v) => `${scheme}: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
      }
      await page.screenshot({ path: '/tmp/maintenance-windows.page.png', fullPage: true });
      await row.getByRole('button', { name: 'End now' }).click();
      await row.getByText('Planned').waitFor();
      expect(await row.textContent()).toContain('none ahead');
      const list = await call('GET', '/api/v1/maintenance-windows');
      expect((list.body as { data: Array<{ active: boolean }> }).data).toMatchObject([{ active: false }]);
    },
  );
});
