/**
 * The status page settings of DECISIONS §18 in a real Chromium against a real `tocsin serve`: the editor's layout
 * (groups added, renamed, moved, folded, filled from the monitor picker), custom domain, password access and time
 * zone are saved through the API and read back; a refused domain is said at its field; then the public page, with
 * JavaScript off, at its custom domain (Chromium resolves the name to loopback): the password form, the session, the
 * groups as disclosures with their worst state, the page's time zone, no CSP violation. Screenshots at 360 and
 * 1280 px go to $TOCSIN_SCREENSHOTS or the temp dir; axe finds no serious or critical violation in the editor.
 */
import AxeBuilder from '@axe-core/playwright';
import { mkdirSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipWithout, testServices } from '../support/services.ts';
import { firstRun, sessionApi, settle, startServe, type WebAppServer } from './web-app.harness.ts';

const shots = process.env.TOCSIN_SCREENSHOTS ?? join(os.tmpdir(), 'tocsin-status-page-shots');
const DOMAIN = 'status.example.test';
const PASSWORD = 'page password 2026';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- API bodies read loosely

describe.skipIf(skipWithout('chromium'))('status page settings in the web app and at a custom domain', () => {
  let server: WebAppServer;
  let browser: Browser;
  let page: Page;
  let pageId = '';
  const monitorIds: Record<string, string> = {};

  beforeAll(async () => {
    server = await startServe('sqlite');
    browser = await chromium.launch({
      executablePath: testServices.chromiumPath!,
      // The custom domain reaches the server on loopback, as DNS would send it to the operator's proxy.
      args: ['--no-sandbox', '--disable-gpu', '--no-first-run', `--host-resolver-rules=MAP ${DOMAIN} 127.0.0.1`],
    });
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await firstRun(page, server.origin);
    const call = await sessionApi(page, server.origin);
    for (const name of ['Website', 'API', 'Database', 'Mail relay']) {
      const created = await call('POST', '/api/v1/monitors', { name, target: 'http://127.0.0.1:9/' });
      expect(created.status).toBe(201);
      monitorIds[name] = (created.body as Json).id as string;
    }
    const created = await call('POST', '/api/v1/status-pages', {
      slug: 'acme-settings',
      title: 'Acme settings',
      monitor_ids: [monitorIds['Mail relay']],
    });
    expect(created.status).toBe(201);
    pageId = (created.body as Json).id as string;
    mkdirSync(shots, { recursive: true });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('edits groups, domain, password and time zone, and reads them back', { timeout: 180_000 }, async () => {
    await page.goto(`${server.origin}/status-pages/${pageId}`);
    await settle(page);
    await page.getByRole('button', { name: '+ Add group' }).click();
    await page.getByRole('button', { name: '+ Add group' }).click();
    const names = page.getByLabel('Group name');
    await names.nth(0).fill('Frontend');
    await names.nth(1).fill('Storage');
    await page.getByText('Monitors of Frontend (0)').click();
    const frontend = page.locator('.group-editor').nth(0);
    await frontend.getByRole('checkbox', { name: 'Website' }).check();
    await frontend.getByRole('checkbox', { name: 'API' }).check();
    await page.getByText('Monitors of Storage (0)').click();
    const storage = page.locator('.group-editor').nth(1);
    // A monitor chosen in one group is not offered in another.
    expect(await storage.getByRole('checkbox', { name: 'Website' }).count()).toBe(0);
    await storage.getByRole('checkbox', { name: 'Database' }).check();
    await storage.getByRole('checkbox', { name: 'Folded on the page' }).check();
    await page.getByRole('button', { name: 'Move Storage up' }).click();
    await page.getByLabel('Time zone').selectOption('Europe/Berlin');
    await page.getByLabel('Access').selectOption('password');
    await page.locator('[data-field="password"] input').fill(PASSWORD);

    // A refused domain is said at its field, and nothing is saved.
    await page.getByLabel('Custom domain').fill('https://status.example.test/');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect
      .poll(() => page.locator('[data-field="custom_domain"] .field-error').textContent(), { timeout: 20_000 })
      .toContain('must be a host name such as status.example.com');
    const call = await sessionApi(page, server.origin);
    expect(((await call('GET', `/api/v1/status-pages/${pageId}`)).body as Json).groups).toEqual([]);

    await page.getByLabel('Custom domain').fill(DOMAIN);
    await page.getByRole('button', { name: 'Save' }).click();
    // Saving hashes the password (scrypt): allow it time on a loaded machine.
    await expect
      .poll(() => page.locator('iframe.preview').getAttribute('src'), { timeout: 20_000 })
      .toBe('/status/acme-settings?v=1');
    const stored = (await call('GET', `/api/v1/status-pages/${pageId}`)).body as Json;
    expect(stored).toMatchObject({
      groups: [
        { name: 'Storage', monitor_ids: [monitorIds.Database], collapsed: true },
        { name: 'Frontend', monitor_ids: [monitorIds.Website, monitorIds.API], collapsed: false },
      ],
      monitor_ids: [monitorIds['Mail relay']],
      custom_domain: DOMAIN,
      access: 'password',
      password_set: true,
      timezone: 'Europe/Berlin',
    });
    await page.reload();
    await settle(page);
    expect(await page.getByLabel('Group name').nth(0).inputValue()).toBe('Storage');
    expect(await page.getByLabel('Custom domain').inputValue()).toBe(DOMAIN);
    expect(await page.getByLabel('Time zone').inputValue()).toBe('Europe/Berlin');
    // The password is never sent back: the field is empty and says one is set.
    expect(await page.getByLabel('New password').inputValue()).toBe('');
    await page.screenshot({ path: join(shots, 'status-page-settings-1280.png'), fullPage: true });
    const axe = await new AxeBuilder({ page }).exclude('iframe').analyze();
    expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual(
      [],
    );
    await page.setViewportSize({ width: 360, height: 800 });
    await page.waitForTimeout(300);
    // Nothing wider than the phone's screen.
    expect(await page.locator('html').evaluate((root) => root.scrollWidth)).toBeLessThanOrEqual(360);
    await page.screenshot({ path: join(shots, 'status-page-settings-360.png'), fullPage: true });
  });

  it(
    'serves the protected page at its domain without JavaScript: form, session, groups, zone',
    { timeout: 120_000 },
    async () => {
      const port = new URL(server.origin).port;
      const visitor = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 900 } });
      const tab = await visitor.newPage();
      const violations: string[] = [];
      tab.on('console', (m) => {
        if (/Content Security Policy|Refused to/i.test(m.text())) violations.push(m.text());
      });
      const origin = `http://${DOMAIN}:${port}`;
      const first = await tab.goto(`${origin}/`);
      expect(first!.status()).toBe(401);
      expect(await tab.getByRole('heading', { level: 1 }).textContent()).toBe('This status page is protected');
      expect(await tab.content()).not.toContain('Acme settings');
      await tab.getByLabel('Password').fill('not the password');
      await tab.getByRole('button', { name: 'Open the page' }).click();
      expect(await tab.getByRole('alert').textContent()).toBe('Wrong password. Try again.');
      await tab.getByLabel('Password').fill(PASSWORD);
      await tab.getByRole('button', { name: 'Open the page' }).click();
      await tab.waitForURL(`${origin}/`);
      expect(await tab.getByRole('heading', { level: 1 }).textContent()).toBe('Acme settings');
      const groups = tab.locator('details.group');
      expect(await groups.count()).toBe(2);
      // Storage is folded, Frontend open; each header says its worst state (no check has run yet: awaiting).
      expect(await groups.nth(0).getAttribute('open')).toBeNull();
      expect(await groups.nth(1).getAttribute('open')).toBe('');
      expect(await groups.nth(0).locator('summary').innerText()).toMatch(/Storage\s*\(1 system\)/);
      expect(await groups.nth(0).locator('summary .st').innerText()).toMatch(
        /Awaiting first check|Degraded|Operational/,
      );
      expect(await groups.nth(0).getByText('Database').isVisible()).toBe(false);
      await groups.nth(0).locator('summary').click();
      expect(await groups.nth(0).getByText('Database').isVisible()).toBe(true);
      expect(await tab.locator('footer').innerText()).toContain('Times are Europe/Berlin');
      expect(await tab.locator('footer time').innerText()).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d CE[S]?T$/);
      // The page's JSON link works at the custom domain with the session.
      const href = (await tab.locator('footer').getByRole('link', { name: 'JSON' }).getAttribute('href'))!;
      const pageUrl = tab.url();
      const json = await tab.goto(`${origin}${href}`);
      expect(json!.status()).toBe(200);
      expect(((await json!.json()) as Json).groups.map((g: Json) => g.name)).toEqual(['Storage', 'Frontend']);
      await tab.goto(pageUrl);
      await tab.locator('details.group').nth(0).locator('summary').click();
      await tab.screenshot({ path: join(shots, 'status-page-groups-1280.png'), fullPage: true });
      await tab.setViewportSize({ width: 360, height: 800 });
      await tab.waitForTimeout(200);
      expect(await tab.locator('html').evaluate((root) => root.scrollWidth)).toBeLessThanOrEqual(360);
      await tab.screenshot({ path: join(shots, 'status-page-groups-360.png'), fullPage: true });
      // The API is not served at the customer's domain.
      expect((await tab.goto(`${origin}/api/v1/status-pages`))!.status()).toBe(404);
      expect(violations).toEqual([]);
      await visitor.close();
    },
  );
});
