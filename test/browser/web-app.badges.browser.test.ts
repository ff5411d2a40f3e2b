/**
 * Badges in the web app against a real `tocsin serve`: on a monitor's page the owner creates a badge, sees the
 * previews load, copies the Markdown (read back from the clipboard), rotates the token (the old address answers
 * 404) and revokes it; a status page's settings show the page badge's snippets. axe finds no serious or critical
 * violation on the badge section.
 */
import AxeBuilder from '@axe-core/playwright';
import { mkdirSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipWithout } from '../support/services.ts';
import { firstRun, launchChromium, sessionApi, startServe, type WebAppServer } from './web-app.harness.ts';

const shots = process.env.TOCSIN_SCREENSHOTS ?? join(os.tmpdir(), 'tocsin-badge-shots');

describe.skipIf(skipWithout('chromium'))('web app: badges (sqlite)', () => {
  let server: WebAppServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServe('sqlite'), launchChromium()]);
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.origin });
    page = await context.newPage();
    mkdirSync(shots, { recursive: true });
    await firstRun(page, server.origin);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  /** Whether every image of the section loaded (a broken preview has no natural width). */
  const previewsLoaded = () =>
    page
      .locator('section[aria-labelledby="badge"], section[aria-labelledby="preview"]')
      .locator('img')
      .evaluateAll(
        (images) =>
          images.length > 0 && images.every((i) => (i as unknown as { naturalWidth: number }).naturalWidth > 0),
      );

  it('creates, copies, rotates and revokes a monitor badge', { timeout: 90_000 }, async () => {
    const call = await sessionApi(page, server.origin);
    const made = await call('POST', '/api/v1/monitors', {
      name: 'Checkout [EU]',
      target: 'http://127.0.0.1:9/health',
      interval_seconds: 60,
    });
    expect(made.status).toBe(201);
    const monitorId = (made.body as { id: string }).id;

    await page.goto(`${server.origin}/monitors/${monitorId}`);
    const section = page.locator('section[aria-labelledby="badge"]');
    await section.getByText('No badge.').waitFor();
    await section.getByRole('button', { name: 'Create badge' }).click();
    const markdown = section.getByLabel('Status, Markdown');
    await markdown.waitFor();
    const first = (await call('GET', `/api/v1/monitors/${monitorId}/badge`)).body as { token: string };
    const statusUrl = `${server.origin}/badge/${first.token}/status.svg`;
    expect(await markdown.inputValue()).toBe(`![Checkout EU status](${statusUrl})`);
    expect(await section.getByLabel('Uptime (30 days), HTML').inputValue()).toBe(
      `<img src="${server.origin}/badge/${first.token}/uptime.svg" alt="Checkout [EU] uptime">`,
    );
    await expect.poll(previewsLoaded).toBe(true);
    await section.getByRole('button', { name: 'Copy Markdown' }).first().click();
    await section.getByText('Copied.').waitFor();
    const clipboard = () =>
      (
        globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }
      ).navigator.clipboard.readText();
    expect(await page.evaluate(clipboard)).toBe(`![Checkout EU status](${statusUrl})`);

    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      const result = await new AxeBuilder({ page }).include('section[aria-labelledby="badge"]').analyze();
      const bad = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      expect(bad.map((v) => `${scheme}: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await section.screenshot({ path: join(shots, 'web-monitor-badge.png') });

    await section.getByRole('button', { name: 'Rotate token' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Rotate token' }).click();
    await expect.poll(async () => (await markdown.inputValue()).includes(first.token)).toBe(false);
    expect((await page.request.get(statusUrl)).status()).toBe(404);
    const second = (await call('GET', `/api/v1/monitors/${monitorId}/badge`)).body as { token: string };
    expect(await markdown.inputValue()).toBe(
      `![Checkout EU status](${server.origin}/badge/${second.token}/status.svg)`,
    );
    expect((await page.request.get(`${server.origin}/badge/${second.token}/status.svg`)).status()).toBe(200);

    await section.getByRole('button', { name: 'Revoke' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke badge' }).click();
    await section.getByText('No badge.').waitFor();
    expect((await page.request.get(`${server.origin}/badge/${second.token}/status.svg`)).status()).toBe(404);
  });

  it("shows the page badge's snippets in the status page settings", { timeout: 60_000 }, async () => {
    const call = await sessionApi(page, server.origin);
    const made = await call('POST', '/api/v1/status-pages', { slug: 'acme-badge', title: 'Acme' });
    expect(made.status).toBe(201);
    const pageId = (made.body as { id: string }).id;
    await page.goto(`${server.origin}/status-pages/${pageId}`);
    const html = page.getByLabel('Page status, HTML');
    await html.waitFor();
    const url = `${server.origin}/status/acme-badge`;
    expect(await html.inputValue()).toBe(`<a href="${url}"><img src="${url}/badge.svg" alt="Acme status"></a>`);
    expect(await page.getByLabel('Page status, Markdown').inputValue()).toBe(
      `[![Acme status](${url}/badge.svg)](${url})`,
    );
    await expect.poll(previewsLoaded).toBe(true);
  });
});
