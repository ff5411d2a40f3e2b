/**
 * The monitor form with the icmp, udp and domain types (DECISIONS §20) against a real `tocsin serve`: each type's
 * keys come from the API document (labels, defaults), the assertion builder offers only the kinds the type takes,
 * and a monitor made through the form is stored with what was typed.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipWithout } from '../support/services.ts';
import { firstRun, launchChromium, sessionApi, startServe, type WebAppServer } from './web-app.harness.ts';

describe.skipIf(skipWithout('chromium'))('web app: icmp, udp and domain monitors in the form (sqlite)', () => {
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

  const assertionKinds = async (): Promise<string[]> => {
    await page.getByRole('button', { name: 'Add assertion' }).click();
    const kinds = await page
      .getByRole('group', { name: 'Assertion 1' })
      .getByLabel('Check')
      .locator('option')
      .allTextContents();
    await page.getByRole('button', { name: 'Remove assertion 1' }).click();
    return kinds;
  };

  it('offers each type its own keys and assertion kinds', { timeout: 60_000 }, async () => {
    await page.goto(`${server.origin}/monitors/new`);
    await page.getByLabel('Type').selectOption({ label: 'Ping (ICMP)' });
    await page.getByText('ICMP settings, assertions and alerting').click();
    expect(await page.locator('[data-field="config.count"]').textContent()).toContain('Default: 3.');
    expect(await page.locator('[data-field="config.max_loss_percent"]').textContent()).toContain('Default: 50.');
    expect(await assertionKinds()).toEqual(['response time']);

    await page.getByLabel('Type').selectOption({ label: 'Domain registration expiry' });
    expect(await page.locator('[data-field="config.alert_days_before_expiry"]').textContent()).toContain(
      'Default: 30.',
    );
    await page.getByLabel('RDAP server (base URL)').waitFor();
    expect(await page.getByRole('button', { name: 'Add assertion' }).count()).toBe(0);
  });

  it(
    'creates a udp monitor from the form, and shows the API’s issue next to a bad key',
    { timeout: 60_000 },
    async () => {
      await page.goto(`${server.origin}/monitors/new`);
      await page.getByLabel('Type').selectOption({ label: 'UDP port' });
      await page.getByLabel('Target').fill('ntp.example.com:123');
      await page.getByText('UDP settings, assertions and alerting').click();
      expect(await assertionKinds()).toEqual(['body', 'response time']);
      await page.getByLabel('Datagram to send').fill('zz');
      await page.getByLabel('Datagram written as').selectOption('hex');
      await page.getByRole('button', { name: 'Create monitor' }).click();
      const issue = page.locator('[data-field="config.send"] .field-error');
      await issue.waitFor();
      expect(await issue.textContent()).toContain('must be pairs of hex digits');

      await page.getByLabel('Datagram to send').fill('1b00');
      await page.getByLabel('Reply must contain').fill('pong');
      await page.getByRole('button', { name: 'Create monitor' }).click();
      await page.waitForURL(/\/monitors\/mon_[0-9a-z]{26}$/);
      const api = await sessionApi(page, server.origin);
      const id = page.url().split('/').at(-1)!;
      const monitor = (await api('GET', `/api/v1/monitors/${id}`)).body as Record<string, unknown>;
      expect(monitor).toMatchObject({
        type: 'udp',
        target: 'ntp.example.com:123',
        config: { send: '1b00', send_encoding: 'hex', expect: 'pong' },
      });
    },
  );
});
