/**
 * The web app's status page editor against a real `tocsin serve`: "Show SLA targets" is saved through the API, read
 * back on reload, the preview reloads at a new address, and the editor passes axe.
 */
import AxeBuilder from '@axe-core/playwright';
import { mkdirSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipWithout } from '../support/services.ts';
import { firstRun, launchChromium, sessionApi, settle, startServe, type WebAppServer } from './web-app.harness.ts';

const shots = process.env.TOCSIN_SCREENSHOTS ?? join(os.tmpdir(), 'tocsin-status-page-shots');

describe.skipIf(skipWithout('chromium'))('status page editor in the web app', () => {
  let server: WebAppServer;
  let browser: Browser;
  let page: Page;
  let pageId = '';

  beforeAll(async () => {
    server = await startServe('sqlite');
    browser = await launchChromium();
    // AxeBuilder needs a page of a context made with newContext().
    page = await (await browser.newContext()).newPage();
    await firstRun(page, server.origin);
    const call = await sessionApi(page, server.origin);
    const monitor = await call('POST', '/api/v1/monitors', { name: 'Website', target: 'http://127.0.0.1:9/' });
    expect(monitor.status).toBe(201);
    const created = await call('POST', '/api/v1/status-pages', {
      slug: 'editor-sla',
      title: 'Editor SLA',
      monitor_ids: [(monitor.body as { id: string }).id],
    });
    expect(created.status).toBe(201);
    pageId = (created.body as { id: string }).id;
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('saves "Show SLA targets", reads it back and reloads the preview', { timeout: 120_000 }, async () => {
    await page.goto(`${server.origin}/status-pages/${pageId}`);
    await settle(page);
    const box = page.getByRole('checkbox', { name: 'Show SLA targets' });
    expect(await box.isChecked()).toBe(false);
    expect(await page.locator('iframe.preview').getAttribute('src')).toBe('/status/editor-sla?v=0');
    await box.check();
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.locator('iframe.preview').getAttribute('src')).toBe('/status/editor-sla?v=1');
    const call = await sessionApi(page, server.origin);
    const stored = await call('GET', `/api/v1/status-pages/${pageId}`);
    expect(stored.body).toMatchObject({ show_sla_targets: true });
    await page.reload();
    await settle(page);
    expect(await page.getByRole('checkbox', { name: 'Show SLA targets' }).isChecked()).toBe(true);
    mkdirSync(shots, { recursive: true });
    await page.screenshot({ path: join(shots, 'status-page-editor.png') });
    const result = await new AxeBuilder({ page }).exclude('iframe').analyze();
    expect(result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual(
      [],
    );
  });
});
