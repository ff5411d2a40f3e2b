/**
 * The smtp and websocket types (DECISIONS §20) in the web app against a real `tocsin serve` (SQLite) whose engine
 * checks loopback peers: each is created through the monitor form (its own target hint, config keys and the
 * assertion kinds that apply), checked up, and its detail page names the phases as the type measures them.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipWithout } from '../support/services.ts';
import {
  startSmtpTarget,
  startWebSocketTarget,
  type SmtpTarget,
  type WebSocketTarget,
} from '../support/targets/index.ts';
import { firstRun, launchChromium, sessionApi, settle, startServe, type WebAppServer } from './web-app.harness.ts';

describe.skipIf(skipWithout('chromium'))('web app: smtp and websocket monitors (sqlite)', () => {
  let server: WebAppServer;
  let browser: Browser;
  let page: Page;
  let mail: SmtpTarget;
  let sockets: WebSocketTarget;
  let call: Awaited<ReturnType<typeof sessionApi>>;

  beforeAll(async () => {
    [server, browser, mail, sockets] = await Promise.all([
      startServe('sqlite'),
      launchChromium(),
      startSmtpTarget({ banner: 'Tocsin browser ESMTP' }),
      startWebSocketTarget(),
    ]);
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await firstRun(page, server.origin);
    call = await sessionApi(page, server.origin);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await Promise.all([mail?.close(), sockets?.close()]);
  });

  async function createdId(): Promise<string> {
    await page.waitForURL(/\/monitors\/mon_[0-9a-z]{26}$/, { timeout: 30_000 });
    return page.url().split('/').at(-1)!;
  }
  async function upAndPhases(id: string, phases: string[]): Promise<void> {
    await expect
      .poll(async () => ((await call('GET', `/api/v1/monitors/${id}`)).body as { status: string }).status, {
        timeout: 60_000,
      })
      .toBe('up');
    await page.reload();
    await settle(page);
    const labels = page.locator('dl.phases dt');
    await expect.poll(() => labels.allTextContents(), { timeout: 15_000 }).toEqual(phases);
  }

  it('creates an smtp monitor from the form, with body assertions on the banner', { timeout: 120_000 }, async () => {
    await page.goto(`${server.origin}/monitors/new`);
    await settle(page);
    await page.getByLabel('Type').selectOption('smtp');
    await page.getByText('host or host:port of the mail server').waitFor();
    await page.getByLabel('Target').fill(mail.target);
    await page.getByText('SMTP settings, assertions and alerting').click();
    await page.getByLabel('TLS', { exact: true }).selectOption('none');
    await page.getByRole('button', { name: 'Add assertion' }).click();
    const check = page.getByRole('group', { name: 'Assertion 1' }).getByLabel('Check');
    expect(await check.locator('option').allTextContents()).toEqual(['body', 'response time']);
    await page.getByRole('group', { name: 'Assertion 1' }).getByLabel('Value').fill('ESMTP');
    await page.getByRole('button', { name: 'Create monitor' }).click();
    const id = await createdId();
    const stored = (await call('GET', `/api/v1/monitors/${id}`)).body as { type: string; config: object };
    expect(stored.type).toBe('smtp');
    expect(stored.config).toMatchObject({ tls_mode: 'none', assertions: [{ type: 'body', contains: 'ESMTP' }] });
    await upAndPhases(id, ['dns', 'connect', 'tls', 'banner', 'ehlo', 'total']);
  });

  it('creates a websocket monitor that sends and expects, from the form', { timeout: 120_000 }, async () => {
    await page.goto(`${server.origin}/monitors/new`);
    await settle(page);
    await page.getByLabel('Type').selectOption('websocket');
    await page.getByLabel('Target').fill(`${sockets.url}/echo`);
    await page.getByText('WEBSOCKET settings, assertions and alerting').click();
    await page.getByLabel('Send after connecting').fill('hello');
    await page.getByLabel('First message contains').fill('hello');
    await page.getByRole('button', { name: 'Create monitor' }).click();
    const id = await createdId();
    const stored = (await call('GET', `/api/v1/monitors/${id}`)).body as { type: string; config: object };
    expect(stored).toMatchObject({ type: 'websocket', config: { send: 'hello', expect: 'hello' } });
    await upAndPhases(id, ['dns', 'connect', 'tls', 'upgrade', 'first message', 'total']);
    expect(sockets.received).toContain('hello');
  });
});
