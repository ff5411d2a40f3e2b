/**
 * Heartbeat monitors made through the web app's schedule form against a real `tocsin serve` (DECISIONS §20): every
 * 90 minutes, and a cron in Europe/Berlin whose bad first expression is refused under its field by the server's
 * preview (and by the save) before a good one is taken. Real pings to each monitor's URL (a start with a run id,
 * a success with a body, a fail with a body, exit code 3) then show on its page with the schedule in words, the
 * next expected ping, durations, output and snippets. Screenshots of the form and the panel at 1280 and 360 px, in
 * light and dark (into TOCSIN_SCREENSHOTS when set).
 */
import { mkdirSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipWithout } from '../support/services.ts';
import { axe, firstRun, launchChromium, sessionApi, settle, startServe, type WebAppServer } from './web-app.harness.ts';

const shots = process.env.TOCSIN_SCREENSHOTS ?? join(os.tmpdir(), 'tocsin-heartbeat-shots');

/** How far the page is wider than the window (runs in the page). */
function pageOverflow(): number {
  const w = globalThis as unknown as { innerWidth: number; document: { documentElement: { scrollWidth: number } } };
  return w.document.documentElement.scrollWidth - w.innerWidth;
}

type Monitor = { id: string; heartbeat_url: string; config: Record<string, unknown> };

describe.skipIf(skipWithout('chromium'))('web app: heartbeat monitors through the schedule form (sqlite)', () => {
  let server: WebAppServer;
  let browser: Browser;
  let page: Page;
  const made: Monitor[] = [];

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServe('sqlite'), launchChromium()]);
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await firstRun(page, server.origin);
    mkdirSync(shots, { recursive: true });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  async function violations(): Promise<string[]> {
    const result = await axe(page).analyze();
    return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  }

  /** The four screenshots of what the page shows now; at 360 px the page itself must not scroll sideways. */
  async function screenshots(name: string): Promise<void> {
    for (const width of [1280, 360]) {
      await page.setViewportSize({ width, height: 900 });
      for (const colorScheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme });
        await page.waitForTimeout(150);
        await page.screenshot({ path: join(shots, `${name}-${width}-${colorScheme}.png`), fullPage: true });
      }
      const overflow = await page.evaluate(pageOverflow);
      expect(overflow, `${name} at ${width} px overflows by ${overflow} px`).toBeLessThanOrEqual(0);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.emulateMedia({ colorScheme: 'light' });
  }

  async function create(): Promise<Monitor> {
    await page.getByRole('button', { name: 'Create monitor' }).click();
    await page.waitForURL(/\/monitors\/mon_[0-9a-z]{26}$/);
    const api = await sessionApi(page, server.origin);
    const monitor = (await api('GET', `/api/v1/monitors/${page.url().split('/').at(-1)!}`)).body as Monitor;
    made.push(monitor);
    return monitor;
  }

  const preview = () => page.getByTestId('schedule-preview');

  it(
    'every 90 minutes: words and the next three pings from the server as it is typed',
    { timeout: 90_000 },
    async () => {
      await page.goto(`${server.origin}/monitors/new`);
      await page.getByLabel('Type').selectOption({ label: 'Heartbeat (pinged by your job)' });
      await page.getByLabel('Name').fill('Database backup');
      await page.getByLabel('A ping is due every').fill('90');
      expect(await page.getByLabel('Unit of the period').inputValue()).toBe('60');
      await page.getByTestId('schedule-words').filter({ hasText: 'every 90 minutes' }).waitFor();
      const next = preview().locator('[data-testid="schedule-next"] li');
      await expect.poll(() => next.count()).toBe(3);
      expect(await preview().textContent()).toContain('late after 1 minute of grace');
      expect(await violations()).toEqual([]);
      await screenshots('web-heartbeat-form-every');
      const monitor = await create();
      expect(monitor.config).toMatchObject({ schedule: { every_seconds: 5400 }, grace_seconds: 60 });
    },
  );

  it(
    'a cron in Europe/Berlin: a bad expression is refused under its field, then a good one is saved',
    { timeout: 90_000 },
    async () => {
      await page.goto(`${server.origin}/monitors/new`);
      await page.getByLabel('Type').selectOption({ label: 'Heartbeat (pinged by your job)' });
      await page.getByLabel('Name').fill('Nightly report');
      await page.getByLabel('On a cron schedule, in a time zone').check();
      await page.getByLabel('Time zone', { exact: true }).selectOption('Europe/Berlin');
      await page.getByLabel('Cron expression', { exact: true }).fill('30 25 * * *');
      const issue = page.locator('[data-field="config.schedule.cron"] .field-error');
      await issue.waitFor();
      expect(await issue.textContent()).toMatch(/hour|25/);
      expect(await preview().textContent()).toContain('Fix the schedule');
      // The save gives the same refusal, under the same field, and makes nothing.
      await page.getByRole('button', { name: 'Create monitor' }).click();
      await page.waitForTimeout(500);
      expect(page.url()).toMatch(/\/monitors\/new$/);
      expect(await issue.textContent()).toMatch(/hour|25/);
      expect(await violations()).toEqual([]);

      await page.getByLabel('Cron expression', { exact: true }).fill('30 2 * * 1-5');
      await page.getByLabel('Grace period').fill('15');
      await issue.waitFor({ state: 'detached' });
      await page.getByTestId('schedule-words').filter({ hasText: 'at 02:30 every weekday (Europe/Berlin)' }).waitFor();
      expect(await preview().textContent()).toContain('late after 15 minutes of grace');
      const next = await preview().locator('[data-testid="schedule-next"] li').allTextContents();
      expect(next).toHaveLength(3);
      // Each is 02:30 in Berlin, whatever the offset of that day.
      for (const line of next) expect(line).toMatch(/02:30 GMT\+[12]/);
      const monitor = await create();
      expect(monitor.config).toMatchObject({
        schedule: { cron: '30 2 * * 1-5', timezone: 'Europe/Berlin' },
        grace_seconds: 900,
      });

      // Editing it starts from its schedule.
      await page.goto(`${server.origin}/monitors/${monitor.id}/edit`);
      const cron = page.getByLabel('Cron expression', { exact: true });
      await expect.poll(() => cron.inputValue()).toBe('30 2 * * 1-5');
      expect(await page.getByLabel('On a cron schedule, in a time zone').isChecked()).toBe(true);
      expect(await page.getByLabel('Time zone', { exact: true }).inputValue()).toBe('Europe/Berlin');
      expect(await page.getByLabel('Grace period').inputValue()).toBe('15');
      expect(await page.getByLabel('Unit of the grace').inputValue()).toBe('60');
      await page.getByTestId('schedule-words').filter({ hasText: 'at 02:30 every weekday (Europe/Berlin)' }).waitFor();
      expect(await violations()).toEqual([]);
      await screenshots('web-heartbeat-form-cron');
    },
  );

  it('real pings show on each monitor page with durations, output and snippets', { timeout: 90_000 }, async () => {
    expect(made).toHaveLength(2);
    const words = ['every 90 minutes', 'at 02:30 every weekday (Europe/Berlin)'];
    for (const [i, monitor] of made.entries()) {
      const url = monitor.heartbeat_url;
      const ping = async (path: string, body?: string) => {
        const res = await fetch(`${url}${path}`, { method: body === undefined ? 'GET' : 'POST', body });
        expect(res.status, `${path}: ${await res.text()}`).toBe(200);
      };
      await ping('/start?rid=run-1');
      await new Promise((r) => setTimeout(r, 250));
      await ping('?rid=run-1', `backup ${i} done: 42 files`);
      await ping('/fail', `disk ${i} full`);
      await ping('/3', `exit three ${i}`);

      await page.goto(`${server.origin}/monitors/${monitor.id}`);
      await settle(page);
      const panel = page.getByTestId('heartbeat-panel');
      expect(await panel.getByTestId('heartbeat-schedule').textContent()).toBe(words[i]);
      expect(await panel.getByTestId('heartbeat-next').textContent()).not.toBe('never');
      const rows = panel.locator('[data-testid="heartbeat-pings"] tbody tr');
      await expect.poll(() => rows.count()).toBe(4);
      const cells = async (n: number) => rows.nth(n).locator('td').allTextContents();
      // Newest first: exit code 3, fail, the success that ended run-1 (with its duration), the start.
      const [exit, fail, success, start] = [await cells(0), await cells(1), await cells(2), await cells(3)];
      expect(exit.slice(1, 6)).toEqual(['fail', '', '', '3', `exit three ${i}`]);
      expect(fail.slice(1, 6)).toEqual(['fail', '', '', '', `disk ${i} full`]);
      expect(success.slice(1, 3)).toEqual(['success', 'run-1']);
      expect(success[3]).toMatch(/^\d+ ms$|^\d+\.\d s$/);
      expect(success[5]).toBe(`backup ${i} done: 42 files`);
      expect(start.slice(1, 3)).toEqual(['start', 'run-1']);
      const snippets = await panel.locator('.heartbeat-snippet pre').allTextContents();
      expect(snippets).toHaveLength(3);
      for (const s of snippets) expect(s).toContain(url);
      expect(await violations()).toEqual([]);
      if (i === 1) await screenshots('web-heartbeat-panel');
    }
  });
});
