/**
 * Records configuration as code manages (DECISIONS §19) in the web app, against a real `tocsin serve`: the monitor's
 * page and editor, a status page's and a destination's editors say so with the item's key and how to change it, and
 * offer no way to change it; an unmanaged monitor stays editable.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipWithout } from '../support/services.ts';
import { firstRun, launchChromium, sessionApi, settle, startServe, type WebAppServer } from './web-app.harness.ts';

describe.skipIf(skipWithout('chromium'))('web app: records managed by configuration (sqlite)', () => {
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
    const applied = await call('POST', '/api/v1/config/apply', {
      document: {
        version: 1,
        destinations: [
          { key: 'ops-hook', type: 'generic_webhook', name: 'Ops', config: { url: 'http://127.0.0.1:9/hook' } },
        ],
        monitors: [
          { key: 'api', name: 'API', target: 'http://127.0.0.1:9/api', config: { alert_destinations: ['ops-hook'] } },
        ],
        status_pages: [{ key: 'public', slug: 'managed-page', title: 'Managed page', monitors: ['api'] }],
      },
    });
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    for (const e of (applied.body as { entries: Array<{ key: string; item_id: string }> }).entries)
      ids[e.key] = e.item_id;
    const own = await call('POST', '/api/v1/monitors', { name: 'Own', target: 'http://127.0.0.1:9/own' });
    ids.own = (own.body as { id: string }).id;
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const notice = () => page.getByRole('note').filter({ hasText: 'Managed by configuration as code' });

  it(
    'shows a managed monitor, status page and destination read-only with their keys',
    { timeout: 90_000 },
    async () => {
      await page.goto(`${server.origin}/monitors/${ids.api}`);
      await settle(page);
      await expect.poll(() => notice().textContent()).toContain('the item api of your configuration document');
      await page.goto(`${server.origin}/monitors/${ids.api}/edit`);
      await settle(page);
      await expect.poll(() => notice().textContent()).toContain('tocsin config apply');
      expect(await page.getByRole('button', { name: 'Save changes' }).count()).toBe(0);

      await page.goto(`${server.origin}/status-pages/${ids.public}`);
      await settle(page);
      await expect.poll(() => notice().textContent()).toContain('the item public');
      expect(await page.getByRole('textbox', { name: /Title/ }).isDisabled()).toBe(true);

      await page.goto(`${server.origin}/destinations/${ids['ops-hook']}`);
      await settle(page);
      await expect.poll(() => notice().textContent()).toContain('the item ops-hook');
      expect(await page.getByRole('textbox', { name: /Name/ }).first().isDisabled()).toBe(true);
    },
  );

  it('leaves an unmanaged monitor editable', { timeout: 60_000 }, async () => {
    await page.goto(`${server.origin}/monitors/${ids.own}/edit`);
    await settle(page);
    await page.getByRole('button', { name: 'Save changes' }).waitFor();
    expect(await notice().count()).toBe(0);
  });
});
