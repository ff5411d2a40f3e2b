/**
 * Custom and scheduled reports in Chromium against a real `tocsin serve`: a custom report built with two widgets
 * (a refusal shown at the widget field it names), reordered with the keyboard, shared with one member, rendered
 * and downloaded as JSON, CSV and PDF; the member it is shared with reads it, another member gets the not-found
 * page. A schedule made through the form shows the next run in its zone as the server computes it; Run now reaches
 * the harness webhook receiver and mail sink and the run's deliveries appear on the page; pause and resume show; a
 * viewer is offered no control that changes anything. Axe on every page, light and dark (on SQLite).
 */
import { readFileSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nextRunAt } from '../../src/modules/scheduled-reports/index.ts';
import { pct } from '../../web/src/lib/report-format.ts';
import { inZone } from '../../web/src/lib/time-zones.ts';
import { testDialects } from '../support/databases.ts';
import { skipWithout } from '../support/services.ts';
import {
  axe,
  chromiumOnce,
  firstRun,
  sessionApi,
  settle,
  startReceiver,
  startServe,
  startTarget,
  type Receiver,
  type SwitchableTarget,
  type WebAppServer,
} from './web-app.harness.ts';

/**
 * Axe in light and dark on the page as it is. The pages are the same on either database: scanned on SQLite only
 * (as in web-app.reports), which halves the file's scans.
 */
async function axeProblems(page: Page, name: string, dialect: string): Promise<string[]> {
  const problems: string[] = [];
  if (dialect !== 'sqlite') return problems;
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    const result = await axe(page).analyze();
    for (const v of result.violations)
      if (v.impact === 'serious' || v.impact === 'critical')
        problems.push(`${scheme} ${name}: ${v.id} (${v.impact}) ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
  return problems;
}

async function download(page: Page, link: string): Promise<{ name: string; body: Buffer }> {
  const [file] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: link, exact: true }).click(),
  ]);
  return { name: file.suggestedFilename(), body: readFileSync((await file.path())!) };
}

const chromium = chromiumOnce();
afterAll(() => chromium.close());

// The databases' suites run at the same time, each with its own server, receiver and browser contexts in the file's
// one Chromium; the cases of one database run one after the other ({ concurrent: false }), in this order.
const eachDialect = describe.skipIf(skipWithout('chromium')).concurrent.each(testDialects());
eachDialect('custom and scheduled reports (%s)', (dialect) => {
  let server: WebAppServer;
  let target: SwitchableTarget;
  let receiver: Receiver;
  let browser: Browser;
  let owner: BrowserContext;
  let page: Page;
  const members: Record<string, { context: BrowserContext; page: Page; id: string }> = {};
  const problems: string[] = [];

  /** Invites `email` as a member and accepts the mailed link in a browser context of its own. */
  async function join(email: string, name: string, role: 'member' | 'viewer' = 'member') {
    const call = await sessionApi(page, server.origin);
    const invited = await call('POST', '/api/v1/auth/organization/members', { email, name, role });
    expect(invited.status, JSON.stringify(invited.body)).toBe(201);
    for (let i = 0; i < 120 && !server.smtp.messages.some((m) => m.to.includes(email)); i++)
      await new Promise((r) => setTimeout(r, 250));
    const mail = server.smtp.messages.find((m) => m.to.includes(email))!;
    const link = /(http:\/\/127\.0\.0\.1:\d+\/accept-invitation\?token=[A-Za-z0-9_=%-]+)/.exec(
      mail.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '='),
    )![1]!;
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const memberPage = await context.newPage();
    await memberPage.goto(link);
    await memberPage.getByLabel('Your name').fill(name);
    await memberPage.getByLabel('Choose a password').fill(`${name} password 1`);
    await memberPage.getByRole('button', { name: 'Accept and sign in' }).click();
    await memberPage.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    const session = (await (await memberPage.request.get(`${server.origin}/api/v1/auth/session`)).json()) as {
      user: { id: string };
    };
    members[name] = { context, page: memberPage, id: session.user.id };
  }

  beforeAll(async () => {
    [server, target, receiver, browser] = await Promise.all([
      startServe(dialect),
      startTarget(),
      startReceiver(),
      chromium.get(),
    ]);
    owner = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await owner.newPage();
    await firstRun(page, server.origin);
    const call = await sessionApi(page, server.origin);
    for (const body of [
      { name: 'Website', target: target.url, tags: ['web'] },
      { name: 'Checkout API', target: target.url, tags: ['api'] },
      { type: 'generic_webhook', name: 'Ops webhook', config: { url: receiver.url } },
      { type: 'email', name: 'Reports mail', config: { address: 'reports@example.com' } },
    ]) {
      const path = 'target' in body ? '/api/v1/monitors' : '/api/v1/auth/organization/webhooks';
      const res = await call('POST', path, body);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
    // Side by side: most of a join is waiting for the invitation mail to be sent.
    await Promise.all([
      join('sam@example.com', 'Sam'),
      join('nora@example.com', 'Nora'),
      join('vic@example.com', 'Vic', 'viewer'),
    ]);
  }, 180_000);
  afterAll(async () => {
    await Promise.all([owner?.close(), ...Object.values(members).map((m) => m.context.close())]);
    await server?.stop();
    await target?.close();
    await receiver?.close();
  });

  it(
    'builds a custom report (two widgets, reordered by keyboard, shared), renders and downloads it; only the member it is shared with sees it',
    { concurrent: false, timeout: 240_000 },
    async ({ expect }) => {
      await page.goto(`${server.origin}/custom-reports`);
      await settle(page);
      problems.push(...(await axeProblems(page, 'custom-reports (empty)', dialect)));
      await page.getByRole('link', { name: 'New custom report' }).click();
      await page.getByRole('heading', { level: 1, name: 'New custom report' }).waitFor();
      await page.getByLabel('Name').fill('Weekly customer report');
      await page.getByLabel('Period').selectOption('last_7_days');
      await page.getByLabel('Time zone', { exact: true }).selectOption('Europe/Berlin');

      // The first widget (availability) over one chosen monitor.
      const first = page.locator('li.widget').nth(0);
      await first.getByLabel('Title').fill('Shop uptime');
      await first.getByLabel('Chosen monitors').check();
      await first.getByLabel('Website').check();
      // A second one, performance, first with the same title: the API's refusal lands on that widget's title.
      await page.getByLabel('Kind of the new widget').selectOption('performance');
      await page.getByRole('button', { name: 'Add widget' }).click();
      const second = page.locator('li.widget').nth(1);
      await second.getByLabel('Title').fill('Shop uptime');
      await second.getByLabel('Monitors with tags').check();
      await second.getByRole('textbox', { name: 'Tags' }).fill('web, api');
      await page.getByRole('button', { name: 'Create report' }).click();
      const issue = page.locator('[data-field="widgets[1].title"] .field-error');
      await issue.waitFor();
      expect(await issue.textContent()).toMatch(/distinct|already|same/i);
      // Focus moved to the field the API named.
      expect(await page.locator('[data-field="widgets[1].title"] input:focus').count()).toBe(1);
      expect(page.url()).toMatch(/\/custom-reports\/new$/);
      await second.getByLabel('Title').fill('Shop speed');
      problems.push(...(await axeProblems(page, 'custom-report builder (with an error)', dialect)));

      // Reorder with the keyboard: focus the second widget's "up" and press Enter; focus stays on the moved widget.
      await page.getByRole('button', { name: 'Move “Shop speed” up' }).focus();
      await page.keyboard.press('Enter');
      await expect
        .poll(() => page.locator('li.widget .widget-fields > legend').allTextContents())
        .toEqual(['Widget 1: Shop speed', 'Widget 2: Shop uptime']);
      expect(await page.locator(':focus').getAttribute('aria-label')).toBe('Move “Shop speed” down');
      await page.getByRole('status').filter({ hasText: 'moved to position 1 of 2' }).waitFor();

      // Shared with Sam only.
      await page.getByRole('radio', { name: /^Shared/ }).check();
      await page.getByRole('checkbox', { name: /^Sam/ }).check();
      await page.getByRole('button', { name: 'Create report' }).click();
      await page.waitForURL(/\/custom-reports\/crp_[0-9a-z]+$/);
      const reportPath = new URL(page.url()).pathname;
      await page.getByRole('heading', { level: 1, name: 'Weekly customer report' }).waitFor();
      await page.locator('section.report-section').nth(1).waitFor();
      await settle(page);
      expect(await page.locator('section.report-section h2').allTextContents()).toEqual([
        'Shop speed · Performance',
        'Shop uptime · Availability',
      ]);
      expect(await page.locator('.facts').first().textContent()).toContain('Shared: Sam');
      problems.push(...(await axeProblems(page, 'custom-report view', dialect)));

      // The three downloads.
      const json = await download(page, 'JSON');
      const doc = JSON.parse(json.body.toString('utf8')) as {
        report: string;
        period: { timezone: string; preset: string };
        sections: { title: string; kind: string; report: { summary: { uptime_percent: number; monitors: number } } }[];
      };
      expect(doc.report).toBe('custom');
      expect(doc.period).toMatchObject({ timezone: 'Europe/Berlin', preset: 'last_7_days' });
      expect(doc.sections.map((s) => [s.title, s.kind])).toEqual([
        ['Shop speed', 'performance'],
        ['Shop uptime', 'availability'],
      ]);
      // The page shows the JSON's own figures (stable ones: the preset is resolved again at each render).
      const uptime = doc.sections[1]!.report.summary;
      const shown = page.locator('section.report-section').nth(1);
      expect(await shown.locator('dd[data-key="uptime_percent"]').textContent()).toBe(pct(uptime.uptime_percent));
      expect(await shown.locator('dd[data-key="monitors"]').textContent()).toBe(String(uptime.monitors));
      const csv = (await download(page, 'CSV')).body.toString('utf8');
      expect(csv.replace(/^\uFEFF/, '').split(/\r?\n/)[0]).toMatch(/^section,/);
      expect(csv).toContain('Shop uptime');
      const pdf = await download(page, 'PDF');
      expect(pdf.body.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      expect(pdf.body.length).toBeGreaterThan(2000);

      // The list shows it with owner, visibility and the time of the last change.
      await page.goto(`${server.origin}/custom-reports`);
      const row = page.locator('table.custom-reports tbody tr').filter({ hasText: 'Weekly customer report' });
      await row.waitFor();
      expect(await row.locator('td').allTextContents()).toEqual(
        expect.arrayContaining(['Weekly customer report', 'You', 'Shared (1)']),
      );
      problems.push(...(await axeProblems(page, 'custom-reports', dialect)));
      await page.goto(`${server.origin}${reportPath}/edit`);
      await page.getByRole('heading', { level: 1, name: 'Edit: Weekly customer report' }).waitFor();
      expect(await page.locator('li.widget .widget-fields > legend').allTextContents()).toEqual([
        'Widget 1: Shop speed',
        'Widget 2: Shop uptime',
      ]);
      problems.push(...(await axeProblems(page, 'custom-report edit', dialect)));

      // Sam reads it (no editing controls); Nora gets the not-found page, and no row in her list.
      const sam = members.Sam!.page;
      await sam.goto(`${server.origin}/custom-reports`);
      await sam.getByRole('link', { name: 'Weekly customer report' }).click();
      await sam.locator('section.report-section').nth(1).waitFor();
      expect(await sam.getByRole('link', { name: 'Edit' }).count()).toBe(0);
      expect(await sam.getByRole('button', { name: 'Delete' }).count()).toBe(0);
      const nora = members.Nora!.page;
      await nora.goto(`${server.origin}${reportPath}`);
      await nora.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
      await nora.goto(`${server.origin}${reportPath}/edit`);
      await nora.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
      await nora.goto(`${server.origin}/custom-reports`);
      await nora.getByText('No custom reports yet.').waitFor();
    },
  );

  it(
    'a schedule made through the form shows its next run in its zone; Run now delivers and shows each delivery; pause and resume',
    { concurrent: false, timeout: 240_000 },
    async ({ expect }) => {
      await page.goto(`${server.origin}/scheduled-reports`);
      await settle(page);
      await page.getByRole('link', { name: 'New schedule' }).click();
      await page.getByRole('heading', { level: 1, name: 'New scheduled report' }).waitFor();
      await page.getByRole('combobox', { name: 'Report', exact: true }).selectOption('availability');
      await page.getByLabel('Frequency').selectOption('weekly');
      await page.getByLabel('Day of the week').selectOption('1');
      await page.getByLabel('Time of day').fill('08:00');
      await page.getByLabel('Time zone').selectOption('America/New_York');
      const rule = {
        frequency: 'weekly' as const,
        dayOfWeek: 1,
        dayOfMonth: null,
        timeOfDay: '08:00',
        timezone: 'America/New_York',
      };
      const expected = inZone(nextRunAt(rule, Date.now()), 'America/New_York');
      expect(expected).toMatch(/^Mon \d+ \w+ \d{4}, 08:00 GMT-[45]$/);
      const preview = page.getByTestId('next-run-preview');
      await expect.poll(() => preview.textContent()).toContain(`${expected} (America/New_York)`);
      // The preview follows the form: another zone, another instant.
      await page.getByLabel('Time zone').selectOption('Asia/Tokyo');
      await expect.poll(() => preview.textContent()).toContain('08:00 GMT+9 (Asia/Tokyo)');
      await page.getByLabel('Time zone').selectOption('America/New_York');
      await page.getByRole('checkbox', { name: /Ops webhook/ }).check();
      await page.getByRole('checkbox', { name: /Reports mail/ }).check();
      problems.push(...(await axeProblems(page, 'scheduled-report new', dialect)));
      await page.getByRole('button', { name: 'Create schedule' }).click();
      await page.waitForURL(/\/scheduled-reports\/srp_[0-9a-z]+$/);
      const id = new URL(page.url()).pathname.split('/').pop()!;
      const nextRun = page.locator('[data-next-run]');
      await nextRun.waitFor();
      // The server's next_run_at, shown in the zone, is the instant the form previewed.
      expect(await nextRun.textContent()).toBe(`${expected} (America/New_York)`);

      // Run now: the webhook receiver and the mail sink get the report, and the run's deliveries show.
      await page.getByRole('button', { name: 'Run now' }).click();
      const run = page.locator('table.runs tbody tr').first();
      await expect.poll(() => run.getAttribute('data-status'), { timeout: 90_000 }).toBe('delivered');
      await expect
        .poll(() => receiver.bodies.some((b) => JSON.stringify(b).includes(id)), { timeout: 30_000 })
        .toBe(true);
      expect(server.smtp.messages.some((m) => m.to.includes('reports@example.com'))).toBe(true);
      const deliveries = run.locator('.deliveries li');
      expect(await deliveries.count()).toBe(2);
      for (const name of ['Ops webhook', 'Reports mail']) {
        const item = deliveries.filter({ hasText: name });
        expect(await item.locator('[data-status]').getAttribute('data-status')).toBe('delivered');
      }
      expect(await run.textContent()).toContain('Run now');
      await expect
        .poll(() => page.locator('.schedule-facts [data-status]').last().getAttribute('data-status'), {
          timeout: 15_000,
        })
        .toBe('delivered');
      problems.push(...(await axeProblems(page, 'scheduled-report detail', dialect)));

      // Pause and resume, on the page and in the list.
      await page.getByRole('button', { name: 'Pause' }).click();
      await page.getByRole('button', { name: 'Resume' }).waitFor();
      expect(await page.locator('.schedule-facts [data-status]').first().getAttribute('data-status')).toBe('paused');
      await page.goto(`${server.origin}/scheduled-reports`);
      const row = page.locator(`table.scheduled-reports tr[data-id="${id}"]`);
      await row.waitFor();
      expect(await row.textContent()).toContain('Every Monday at 08:00 (America/New_York)');
      expect(await row.locator('td').last().textContent()).toContain('Paused');
      problems.push(...(await axeProblems(page, 'scheduled-reports', dialect)));
      await row.getByRole('link').click();
      await page.getByRole('button', { name: 'Resume' }).click();
      await page.getByRole('button', { name: 'Pause' }).waitFor();
      expect(await page.locator('.schedule-facts [data-status]').first().getAttribute('data-status')).toBe('active');
      expect(await nextRun.textContent()).toBe(
        `${inZone(nextRunAt(rule, Date.now()), 'America/New_York')} (America/New_York)`,
      );

      // A schedule of the custom report made above: the form shows that report chosen, the list its name.
      const call = await sessionApi(page, server.origin);
      const customId = ((await call('GET', '/api/v1/custom-reports')).body as { data: { id: string }[] }).data[0]!.id;
      const hook = (
        (await call('GET', '/api/v1/auth/organization/webhooks')).body as { data: { id: string; type: string }[] }
      ).data.find((d) => d.type === 'generic_webhook')!.id;
      const custom = await call('POST', '/api/v1/scheduled-reports', {
        report_type: 'custom',
        custom_report_id: customId,
        frequency: 'daily',
        time_of_day: '06:00',
        timezone: 'UTC',
        destination_ids: [hook],
      });
      expect(custom.status).toBe(201);
      const customScheduleId = (custom.body as { id: string }).id;
      await page.goto(`${server.origin}/scheduled-reports/${customScheduleId}`);
      await expect.poll(() => page.getByRole('combobox', { name: 'Custom report' }).inputValue()).toBe(customId);
      await page.goto(`${server.origin}/scheduled-reports`);
      await page
        .locator(`tr[data-id="${customScheduleId}"]`)
        .getByRole('link', { name: 'Custom: Weekly customer report' })
        .waitFor();

      // A viewer reads the schedule but is offered nothing that changes it.
      const vic = members.Vic!.page;
      await vic.goto(`${server.origin}/scheduled-reports`);
      await vic.locator(`table.scheduled-reports tr[data-id="${id}"]`).waitFor();
      expect(await vic.getByRole('link', { name: 'New schedule' }).count()).toBe(0);
      await vic.goto(`${server.origin}/scheduled-reports/${id}`);
      await vic.locator('table.runs tbody tr').first().waitFor();
      for (const name of ['Run now', 'Pause', 'Delete', 'Save'])
        expect(await vic.getByRole('button', { name }).count(), name).toBe(0);
      expect(await vic.getByRole('combobox', { name: 'Frequency' }).isDisabled()).toBe(true);
      await vic.goto(`${server.origin}/custom-reports`);
      await vic.getByText('No custom reports yet.').waitFor();
      expect(await vic.getByRole('link', { name: 'New custom report' }).count()).toBe(0);

      expect(problems).toEqual([]);
    },
  );
});
