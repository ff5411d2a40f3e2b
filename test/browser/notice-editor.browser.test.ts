/**
 * The web app's notice editor against a real `tocsin serve`, in Chromium: a notice written with a live Markdown
 * preview (hostile HTML and a javascript: link stay harmless in the preview and on the public page), saved as a
 * draft the public page does not show, published, resolved through an update on the timeline, and given a
 * post-mortem that the public page shows once published. The editor passes axe.
 */
import AxeBuilder from '@axe-core/playwright';
import { mkdirSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipWithout } from '../support/services.ts';
import { firstRun, launchChromium, sessionApi, settle, startServe, type WebAppServer } from './web-app.harness.ts';

const shots = process.env.TOCSIN_SCREENSHOTS ?? join(os.tmpdir(), 'tocsin-notice-shots');
/** Bounds of the waits for what the page shows (a loaded machine renders slowly). */
const POLL = { timeout: 20_000 };
const HOSTILE = '**Checkout** is failing.\n\n<script>window.pwned = 1</script> [details](javascript:window.pwned=2)';

describe.skipIf(skipWithout('chromium'))('notice editor in the web app', () => {
  let server: WebAppServer;
  let browser: Browser;
  let page: Page;
  let pageId = '';
  const slug = 'notice-editor';

  beforeAll(async () => {
    server = await startServe('sqlite');
    browser = await launchChromium();
    page = await (await browser.newContext()).newPage();
    await firstRun(page, server.origin);
    const call = await sessionApi(page, server.origin);
    const monitor = await call('POST', '/api/v1/monitors', { name: 'Checkout', target: 'http://127.0.0.1:9/' });
    expect(monitor.status).toBe(201);
    const created = await call('POST', '/api/v1/status-pages', {
      slug,
      title: 'Shop',
      monitor_ids: [(monitor.body as { id: string }).id],
    });
    expect(created.status).toBe(201);
    pageId = (created.body as { id: string }).id;
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  /** The public page as a visitor gets it (a fresh context: no session). */
  async function publicHtml(): Promise<string> {
    const res = await fetch(`${server.origin}/status/${slug}?t=${Date.now()}`);
    return res.text();
  }

  it('writes, previews, drafts, publishes, updates and adds a post-mortem', { timeout: 180_000 }, async () => {
    await page.goto(`${server.origin}/status-pages/${pageId}`);
    await settle(page);
    await page.getByRole('link', { name: /^Notices/ }).click();
    await settle(page);
    await expect.poll(() => page.getByText('No notices yet.').isVisible(), POLL).toBe(true);
    await page.getByRole('link', { name: 'New notice' }).click();
    await settle(page);

    await page.getByLabel('Title').fill('Checkout errors');
    await page.getByLabel('Impact').selectOption('major');
    await page.getByRole('checkbox', { name: 'Checkout' }).check();
    await page.getByRole('textbox', { name: 'First update (Markdown)', exact: true }).fill(HOSTILE);
    // The live preview renders as it is typed, with the server's rules.
    const preview = page.getByRole('region', { name: 'Preview of first update (markdown)' });
    await expect.poll(() => preview.locator('strong').textContent(), POLL).toBe('Checkout');
    expect(await preview.textContent()).toContain('<script>window.pwned = 1</script>');
    expect(await preview.locator('script').count()).toBe(0);
    expect(await preview.locator('a').count()).toBe(0);
    mkdirSync(shots, { recursive: true });
    await page.screenshot({ path: join(shots, 'notice-editor-new.png'), fullPage: true });

    await page.getByRole('button', { name: 'Create draft' }).click();
    await expect.poll(() => page.url(), POLL).toMatch(/\/notices\/ntc_[0-9a-z]{26}$/);
    await settle(page);
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Draft' }).count(), POLL).toBe(1);
    expect(await publicHtml()).not.toContain('Checkout errors');

    await page.getByRole('button', { name: 'Publish' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Unpublish' }).count(), POLL).toBe(1);
    const published = await publicHtml();
    expect(published).toContain('Checkout errors');
    expect(published).toContain('<strong>Checkout</strong> is failing.');
    expect(published).toContain('&lt;script&gt;window.pwned = 1&lt;/script&gt;');
    // The javascript: link stays text, never a link.
    expect(published).toContain('[details](javascript:window.pwned=2)');
    expect(published).not.toMatch(/href="javascript:/i);

    // An update that resolves it, previewed, then on the timeline newest first.
    await page.getByRole('combobox', { name: 'Status', exact: true }).last().selectOption('resolved');
    await page.getByRole('textbox', { name: 'Update (Markdown)', exact: true }).fill('Fixed by *rolling back*.');
    await expect
      .poll(() => page.getByRole('region', { name: 'Preview of update (markdown)' }).locator('em').textContent(), POLL)
      .toBe('rolling back');
    await page.getByRole('button', { name: 'Post update' }).click();
    const timeline = page.getByRole('list', { name: 'Updates, newest first' });
    await expect.poll(() => timeline.locator('li').count(), POLL).toBe(2);
    expect(await timeline.locator('li').first().textContent()).toContain('Resolved');
    expect(await timeline.locator('li').first().locator('em').textContent()).toBe('rolling back');
    expect(await timeline.locator('li').last().locator('script').count()).toBe(0);

    // The post-mortem: previewed, then shown on the public page once published.
    await page
      .getByRole('textbox', { name: 'Postmortem (Markdown)', exact: true })
      .fill('## Root cause\nA bad deploy.');
    await expect
      .poll(
        () => page.getByRole('region', { name: 'Preview of postmortem (markdown)' }).locator('h2').textContent(),
        POLL,
      )
      .toBe('Root cause');
    await page.getByRole('button', { name: 'Save postmortem' }).click();
    await expect.poll(async () => (await sessionNotice()).postmortem, POLL).toBe('## Root cause\nA bad deploy.');
    expect(await publicHtml()).not.toContain('Root cause');
    await page.getByRole('checkbox', { name: 'Show the postmortem on the public page' }).check();
    await page.getByRole('button', { name: 'Save postmortem' }).click();
    await expect.poll(async () => (await sessionNotice()).postmortem_published_at, POLL).not.toBeNull();
    const past = await publicHtml();
    expect(past).toContain('Past notices');
    expect(past).toContain('<h2>Root cause</h2>');
    expect(await page.evaluate(() => (globalThis as unknown as { pwned?: number }).pwned)).toBeUndefined();
    await page.screenshot({ path: join(shots, 'notice-editor.png'), fullPage: true });

    const result = await new AxeBuilder({ page }).analyze();
    expect(result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual(
      [],
    );

    // The list shows it, resolved and published.
    await page.getByRole('link', { name: '← Notices' }).click();
    await settle(page);
    const row = page.getByRole('row', { name: /Checkout errors/ });
    await expect.poll(() => row.count(), POLL).toBe(1);
    expect(await row.textContent()).toMatch(/Incident.*Major.*Resolved.*Published/);
  });

  async function sessionNotice(): Promise<{ postmortem: string | null; postmortem_published_at: string | null }> {
    const call = await sessionApi(page, server.origin);
    const list = await call('GET', `/api/v1/status-pages/${pageId}/notices`);
    return (list.body as { data: Array<{ postmortem: string | null; postmortem_published_at: string | null }> })
      .data[0]!;
  }
});
