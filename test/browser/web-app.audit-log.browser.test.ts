/**
 * The audit log page against a real `tocsin serve`: the owner changes a setting in the web app, then finds the
 * change on Settings › Audit log (who, what, the field's before and after), filters it, and downloads the CSV; axe
 * finds no serious or critical violation on the page (light and dark).
 */
import AxeBuilder from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipWithout } from '../support/services.ts';
import { firstRun, launchChromium, OWNER, startServe, type WebAppServer } from './web-app.harness.ts';

describe.skipIf(skipWithout('chromium'))('web app: audit log (sqlite)', () => {
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

  it('shows a change made in the app with its fields, filters it and exports CSV', { timeout: 90_000 }, async () => {
    await page.goto(`${server.origin}/settings`);
    await page.getByRole('heading', { level: 1, name: 'Organization settings' }).waitFor();
    const alerts = page.getByLabel(/Email every verified member/);
    const wasOn = await alerts.isChecked();
    await alerts.click();
    await page.getByRole('status').getByText('Saved.').waitFor();

    await page.getByRole('link', { name: 'Audit log' }).click();
    await page.getByRole('heading', { level: 1, name: 'Audit log' }).waitFor();
    const table = page.getByRole('table', { name: 'Audit log entries' });
    const row = table.getByRole('row').filter({ hasText: 'organization.update' });
    await row.waitFor();
    await expect.poll(() => row.textContent()).toContain(OWNER.name);
    await row.getByText('1 field').click();
    const changes = row.getByRole('row').filter({ hasText: 'emailAlertsEnabled' });
    await expect.poll(() => changes.textContent()).toBe(`emailAlertsEnabled${String(wasOn)}${String(!wasOn)}`);
    // The first run's setup and sign-in are there too.
    await table.getByRole('row').filter({ hasText: 'organization.setup' }).waitFor();
    await page.screenshot({ path: '/tmp/audit-log.page.png', fullPage: true });
    // With a change expanded: no serious or critical accessibility violation, light and dark.
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      const result = await new AxeBuilder({ page }).analyze();
      const bad = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      expect(bad.map((v) => `${scheme}: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
    }
    expect(await page.locator('h1').count()).toBe(1);

    await page.getByLabel('Action').fill('session.sign_in');
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect.poll(() => table.getByRole('row').filter({ hasText: 'organization.update' }).count()).toBe(0);
    await expect.poll(() => table.getByRole('row').filter({ hasText: 'session.sign_in' }).count()).toBe(1);

    const href = await page.getByRole('link', { name: 'Download CSV' }).getAttribute('href');
    expect(href).toBe('/api/v1/audit-log/export?action=session.sign_in');
    const csv = await page.request.get(`${server.origin}${href}`);
    expect(csv.status()).toBe(200);
    const lines = (await csv.text())
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    expect(lines[0]).toMatch(/^id,at,actor_type,actor_id,actor_name,action,/);
    expect(lines.slice(1).map((l) => l.split(',')[5])).toEqual(['session.sign_in']);
  });
});
