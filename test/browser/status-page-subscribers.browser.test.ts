/**
 * Subscribers in Chromium against a real `tocsin serve` with a real SMTP server: the editor's "Let visitors subscribe
 * by email" is saved; the public page's form posts (its Content-Security-Policy allows the page's own forms) and the
 * confirmation mail's link confirms by its button; the editor lists the subscriber and removes it; axe passes.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipWithout } from '../support/services.ts';
import { firstRun, launchChromium, sessionApi, settle, startServe, type WebAppServer } from './web-app.harness.ts';

describe.skipIf(skipWithout('chromium'))('status page subscribers in the browser', () => {
  let server: WebAppServer;
  let browser: Browser;
  let page: Page;
  let pageId = '';

  beforeAll(async () => {
    server = await startServe('sqlite');
    browser = await launchChromium();
    page = await (await browser.newContext()).newPage();
    await firstRun(page, server.origin);
    const call = await sessionApi(page, server.origin);
    const created = await call('POST', '/api/v1/status-pages', { slug: 'browser-subs', title: 'Browser subs' });
    expect(created.status).toBe(201);
    pageId = (created.body as { id: string }).id;
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it(
    'turns subscriptions on, subscribes through the public form, confirms, lists and removes',
    { timeout: 120_000 },
    async () => {
      await page.goto(`${server.origin}/status-pages/${pageId}`);
      await settle(page);
      const box = page.getByRole('checkbox', { name: 'Let visitors subscribe by email' });
      expect(await box.isChecked()).toBe(false);
      await box.check();
      await page.getByRole('button', { name: 'Save' }).click();
      const call = await sessionApi(page, server.origin);
      await expect
        .poll(
          async () =>
            ((await call('GET', `/api/v1/status-pages/${pageId}`)).body as { subscriptions_enabled: boolean })
              .subscriptions_enabled,
        )
        .toBe(true);

      const visitor = await (await browser.newContext()).newPage();
      const refused: string[] = [];
      visitor.on('console', (m) => {
        if (/Content Security Policy/i.test(m.text())) refused.push(m.text());
      });
      await visitor.goto(`${server.origin}/status/browser-subs`);
      await visitor.getByLabel('Email address').fill('visitor@example.com');
      await visitor.getByRole('button', { name: 'Subscribe' }).click();
      await visitor.getByRole('heading', { name: 'Check your inbox' }).waitFor();
      expect(refused).toEqual([]);

      await expect
        .poll(() => server.smtp.messages.filter((m) => m.to.includes('visitor@example.com')).length, {
          timeout: 30_000,
        })
        .toBe(1);
      const mail = server.smtp.messages.find((m) => m.to.includes('visitor@example.com'))!;
      const link = /http:\/\/127\.0\.0\.1:\d+\/status\/browser-subs\/confirm\?token=[A-Za-z0-9_-]{43}/.exec(
        mail.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '='),
      )![0];
      await visitor.goto(link);
      await visitor.getByRole('button', { name: 'Confirm subscription' }).click();
      await visitor.getByRole('heading', { name: 'You are subscribed' }).waitFor();
      expect(refused).toEqual([]);

      await page.reload();
      await settle(page);
      const row = page.getByRole('row', { name: /visitor@example\.com/ });
      await row.waitFor();
      expect(await row.textContent()).toContain('Confirmed');
      const result = await new AxeBuilder({ page }).exclude('iframe').analyze();
      expect(
        result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id),
      ).toEqual([]);
      page.once('dialog', (d) => void d.accept());
      await page.getByRole('button', { name: 'Remove visitor@example.com' }).click();
      await page.getByText('No subscribers yet.').waitFor();
      expect(
        ((await call('GET', `/api/v1/status-pages/${pageId}/subscribers`)).body as { data: unknown[] }).data,
      ).toEqual([]);
    },
  );
});
