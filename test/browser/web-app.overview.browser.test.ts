/**
 * The overview in Chromium against a real `tocsin serve` whose engine checks loopback targets: all clear before
 * anything fails; then six monitors failing (a 503 target, six incidents), one degraded (a slow target), one
 * paused, one in a maintenance window: the state counts, the one-line verdict, the attention groups (capped at
 * five with "Show all", folding), both charts with their text alternatives for 24 h and 7 d, the loading and error
 * states, and an axe scan with no violation in the light and the dark theme.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipWithout } from '../support/services.ts';
import { axe, firstRun, launchChromium, settle, startServe, type WebAppServer } from './web-app.harness.ts';
import { seedOverview, startOverviewTargets, waitForStates, type OverviewTargets } from './web-app.overview.fixture.ts';

const DOWN = 6;

async function statValue(page: Page, stat: string): Promise<string> {
  return ((await page.locator(`[data-stat="${stat}"] .stat-value`).textContent()) ?? '').trim();
}

async function noViolations(page: Page): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.waitForTimeout(100);
    const { violations } = await axe(page).analyze();
    expect(violations.map((v) => `${scheme}: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual(
      [],
    );
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

describe.skipIf(skipWithout('chromium'))('web app overview (sqlite)', () => {
  let server: WebAppServer;
  let targets: OverviewTargets;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    [server, targets, browser] = await Promise.all([startServe('sqlite'), startOverviewTargets(), launchChromium()]);
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    await firstRun(page, server.origin);
  }, 150_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await targets?.close();
  });

  it('with nothing failing: all clear, zero counts, no violations', { timeout: 60_000 }, async () => {
    await settle(page);
    await page.getByText('All clear').waitFor();
    expect(await page.locator('[data-verdict]').textContent()).toContain('No monitors yet.');
    expect(await statValue(page, 'down')).toBe('0');
    expect(await statValue(page, 'incidents')).toBe('0');
    expect(await page.getByRole('link', { name: 'Add your first monitor' }).count()).toBe(1);
    await noViolations(page);
  });

  it('counts every state, groups what needs attention, folds and caps the groups', { timeout: 180_000 }, async () => {
    await seedOverview(page, server.origin, targets, DOWN);
    await waitForStates(page, server.origin, DOWN);
    // What the page asks the API for: the counts, and only the monitors it lists (down and degraded ones).
    const asked: string[] = [];
    const onRequest = (r: { url(): string }) => {
      const url = new URL(r.url());
      if (url.pathname.startsWith('/api/v1/monitors')) asked.push(`${url.pathname}${url.search}`);
    };
    page.on('request', onRequest);
    await page.goto(`${server.origin}/`);
    await settle(page);
    // The strip: each count a link to the list filtered to that state.
    await expect.poll(() => statValue(page, 'down'), { timeout: 15_000 }).toBe(String(DOWN));
    expect(await statValue(page, 'degraded')).toBe('1');
    expect(await statValue(page, 'up')).toBe('3');
    expect(await statValue(page, 'paused')).toBe('1');
    expect(await statValue(page, 'maintenance')).toBe('1');
    expect(await statValue(page, 'incidents')).toBe(String(DOWN));
    expect(await page.locator('[data-stat="down"]').getAttribute('href')).toBe('/monitors?status=down');
    expect(await page.locator('[data-verdict]').textContent()).toContain(
      `Needs attention: ${DOWN} monitors down, 1 degraded, ${DOWN} open incidents.`,
    );
    expect(await page.getByText('All clear').count()).toBe(0);
    page.off('request', onRequest);
    // The counts are one request; full monitor records are read only through a status filter (what "Needs
    // attention" lists), never the whole list.
    expect(asked.filter((u) => u === '/api/v1/monitors/counts')).toHaveLength(1);
    const records = asked.filter((u) => u.startsWith('/api/v1/monitors?'));
    // (A live status change may read a list again: which lists, not how often, is what is checked.)
    expect([...new Set(records.map((u) => new URLSearchParams(u.split('?')[1]).get('status')))].sort()).toEqual([
      'degraded',
      'down',
    ]);
    const counts = await page.evaluate(async () => (await fetch('/api/v1/monitors/counts')).json());
    expect(counts).toEqual({
      total: DOWN + 6,
      by_status: { up: 3, degraded: 1, down: DOWN, pending: 0, paused: 1, maintenance: 1 },
    });

    // Groups: down monitors and open incidents capped at five, with "Show all".
    const down = page.locator('[data-group="down"]');
    expect(await down.locator('.item-list li').count()).toBe(5);
    await down.getByRole('button', { name: `Show all ${DOWN} down monitors` }).click();
    expect(await down.locator('.item-list li').count()).toBe(DOWN);
    await down.getByRole('button', { name: 'Show fewer down monitors' }).click();
    expect(await down.locator('.item-list li').count()).toBe(5);
    const incidents = page.locator('[data-group="incidents"]');
    expect(await incidents.locator('.item-list li').count()).toBe(5);
    expect(await incidents.getByRole('link', { name: /Payments API is down/ }).count()).toBeLessThanOrEqual(1);
    const degraded = page.locator('[data-group="degraded"]');
    await degraded.getByRole('link', { name: 'Checkout' }).waitFor();
    // Paused and in-maintenance monitors are counted, not listed as needing attention.
    expect(await page.locator('.attention').getByRole('link', { name: 'Old site' }).count()).toBe(0);
    expect(await page.locator('.attention').getByRole('link', { name: 'Reports' }).count()).toBe(0);

    // Folding: the heading's button says whether the group is open and hides its rows.
    const toggle = down.getByRole('button', { name: /Down monitors/ });
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    await toggle.click();
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    expect(await down.locator('.item-list li').count()).toBe(0);
    expect(await down.locator('.collapsible-body').isHidden()).toBe(true);
    await noViolations(page);
    await toggle.click();
    expect(await down.locator('.item-list li').count()).toBe(5);
    await noViolations(page);
  });

  it('charts uptime and incidents for 24 h and 7 d, each with a text alternative', { timeout: 180_000 }, async () => {
    const uptime = page.locator('[data-chart="uptime"] [role="img"]');
    const opened = page.locator('[data-chart="incidents"] [role="img"]');
    // The hourly rollups the chart reads fill in within a minute or so of the first checks.
    await expect
      .poll(
        async () => {
          await page.goto(`${server.origin}/`);
          await settle(page);
          return uptime.getAttribute('aria-label');
        },
        { timeout: 150_000, interval: 3000 },
      )
      .toMatch(/^Uptime of all monitors, last 24 hours, per hour: \d+\.\d\d % overall, lowest \d+\.\d\d % at /);
    const uptimeFigure = Number.parseFloat((await page.locator('[data-chart="uptime"] .trend-figure').textContent())!);
    // Six of ten checked monitors fail (the paused one is not checked): far from 100 %, far from 0.
    expect(uptimeFigure).toBeGreaterThan(10);
    expect(uptimeFigure).toBeLessThan(90);
    expect(await opened.getAttribute('aria-label')).toMatch(
      new RegExp(`^Incidents opened, last 24 hours, per hour: ${DOWN} in all, most \\(\\d\\) at `),
    );
    expect(await page.locator('[data-chart="uptime"] .bar').count()).toBe(24);
    expect(await page.locator('[data-chart="incidents"] .bar-tone-down').count()).toBeGreaterThanOrEqual(1);
    // The figures as a table.
    await page.locator('[data-chart="incidents"] summary').click();
    const rows = page.locator('[data-chart="incidents"] table tbody tr');
    expect(await rows.count()).toBe(24);
    // Summed over the hours (the six may straddle an hour boundary).
    const perHour = await rows.locator('td:last-child').allTextContents();
    expect(perHour.reduce((n, t) => n + Number(t), 0)).toBe(DOWN);
    await noViolations(page);

    await page.getByRole('button', { name: 'Last 7 d' }).click();
    await expect
      .poll(() => uptime.getAttribute('aria-label'))
      .toMatch(/^Uptime of all monitors, last 7 days, per day: /);
    expect(await page.getByRole('button', { name: 'Last 7 d' }).getAttribute('aria-pressed')).toBe('true');
    expect(await page.locator('[data-chart="uptime"] .bar').count()).toBe(7);
    expect(await opened.getAttribute('aria-label')).toMatch(
      new RegExp(`^Incidents opened, last 7 days, per day: ${DOWN} in all`),
    );
    await noViolations(page);
  });

  it('says when it is loading and when a request fails, with a retry', { timeout: 60_000 }, async () => {
    const other = await context.newPage();
    let failing = true;
    await other.route(/\/api\/v1\/incidents\?.*status=opened/, async (route) => {
      if (failing)
        await route.fulfill({
          status: 500,
          contentType: 'application/json',
          body: '{"error":{"code":"internal_error","message":"Database unavailable","request_id":"r1"}}',
        });
      else await route.continue();
    });
    await other.route(/\/api\/v1\/monitors(\/counts|\?)/, async (route) => {
      await new Promise((r) => setTimeout(r, 1500));
      await route.continue();
    });
    await other.goto(`${server.origin}/`);
    await other.locator('[data-stat="down"] .stat-value', { hasText: 'Loading…' }).waitFor();
    const alert = other.locator('.attention [role="alert"]');
    await alert.waitFor({ timeout: 30_000 });
    expect(await alert.textContent()).toContain('Database unavailable');
    failing = false;
    await alert.getByRole('button', { name: 'Try again' }).click();
    await expect.poll(() => statValue(other, 'incidents'), { timeout: 20_000 }).toBe(String(DOWN));
    expect(await other.locator('.attention [role="alert"]').count()).toBe(0);
    await other.close();
  });
  it('keeps the navigation on one line at 1280 px', { timeout: 60_000 }, async () => {
    await page.goto(`${server.origin}/`);
    await settle(page);
    const header = page.locator('header.topbar');
    const links = header.getByRole('navigation', { name: 'Main' }).getByRole('link');
    const tops = await links.evaluateAll((els) => els.map((e) => Math.round(e.getBoundingClientRect().top)));
    expect(tops.length).toBeGreaterThanOrEqual(8);
    // One line: every link and the account button on the same row, the header one row high.
    expect(new Set(tops).size).toBe(1);
    const account = header.getByRole('button', { name: /Olive Owner/ });
    const box = (await account.boundingBox())!;
    const headerBox = (await header.boundingBox())!;
    expect(headerBox.height).toBeLessThan(64);
    expect(box.y + box.height).toBeLessThanOrEqual(headerBox.y + headerBox.height);
    // The organization's pages, the theme and sign-out are in the account menu.
    expect(await header.getByRole('link', { name: 'Settings' }).isVisible()).toBe(false);
    await account.click();
    expect(await account.getAttribute('aria-expanded')).toBe('true');
    for (const name of ['Profile', 'Members', 'API keys', 'Settings'])
      expect(await header.getByRole('link', { name, exact: true }).isVisible()).toBe(true);
    expect(await header.getByRole('button', { name: 'Sign out' }).isVisible()).toBe(true);
    await noViolations(page);
    await page.keyboard.press('Escape');
    expect(await account.getAttribute('aria-expanded')).toBe('false');
    await account.click();
    await header.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
    expect(await account.getAttribute('aria-expanded')).toBe('false');
  });

  it("shows no check interval on a heartbeat monitor's form", { timeout: 60_000 }, async () => {
    await page.goto(`${server.origin}/monitors/new`);
    await settle(page);
    expect(await page.getByLabel('Check every (seconds)').count()).toBe(1);
    await page.getByLabel('Type').selectOption({ label: 'Heartbeat (pinged by your job)' });
    await page.getByRole('group', { name: 'Schedule' }).waitFor();
    expect(await page.getByLabel('Check every (seconds)').count()).toBe(0);
    expect(await page.getByText(/Check every/).count()).toBe(0);
    expect(await page.getByTestId('schedule-preview').innerText()).toContain(
      "No schedule: a ping is due at your plan's shortest interval.",
    );
  });
});
