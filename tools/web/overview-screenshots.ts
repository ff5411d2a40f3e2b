/**
 * docs/images/web-look-*.png: the overview (state counts, what needs attention, the 24 h / 7 d trends) and
 * pages the visual system restyled, at 1280 and 360 px, light and dark, on a fresh `tocsin serve` with monitors in
 * every state (test/browser/web-app.overview.fixture.ts), the header's menus open and a new heartbeat's form. Also
 * an all-clear overview before anything fails.
 * Run: `node tools/web/overview-screenshots.ts` (needs /usr/bin/chromium and a built app: `npm run web:build`).
 */
import { mkdirSync } from 'node:fs';
import { firstRun, launchChromium, settle, signIn, startServe, OWNER } from '../../test/browser/web-app.harness.ts';
import { seedOverview, startOverviewTargets, waitForStates } from '../../test/browser/web-app.overview.fixture.ts';

const OUT = new URL('../../docs/images/', import.meta.url).pathname;
mkdirSync(OUT, { recursive: true });
/** `--wait-ms N`: how long to let the rollups fill in before the pictures (default 70 s). */
const waitAt = process.argv.indexOf('--wait-ms');
const waitMs = waitAt > 0 ? Number(process.argv[waitAt + 1]) : 70_000;

const [server, targets, browser] = await Promise.all([startServe('sqlite'), startOverviewTargets(), launchChromium()]);
try {
  const setup = await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: 'light' });
  const first = await setup.newPage();
  await firstRun(first, server.origin);
  // Before any monitor: the all-clear state.
  await settle(first);
  await first.screenshot({ path: `${OUT}web-look-overview-all-clear-1280-light.png` });
  await seedOverview(first, server.origin, targets);
  await waitForStates(first, server.origin);
  // Let the minute rollups reach the hourly buckets the chart reads.
  await new Promise((r) => setTimeout(r, waitMs));
  await setup.close();

  const pages: [string, string][] = [
    ['overview', '/'],
    ['incidents', '/incidents'],
    ['monitors', '/monitors'],
    ['settings', '/settings'],
    ['profile', '/profile'],
  ];
  for (const scheme of ['light', 'dark'] as const) {
    for (const width of [1280, 360]) {
      const context = await browser.newContext({ viewport: { width, height: 900 }, colorScheme: scheme });
      const page = await context.newPage();
      await page.goto(`${server.origin}/sign-in`);
      await signIn(page, OWNER.email, OWNER.password);
      await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
      for (const [name, path] of pages) {
        await page.goto(`${server.origin}${path}`);
        await settle(page);
        await page.screenshot({ path: `${OUT}web-look-${name}-${width}-${scheme}.png`, fullPage: name === 'overview' });
      }
      // The header's menus open: the account menu at 1280 px, the Menu (with the account's part) at 360 px.
      await page.goto(`${server.origin}/`);
      await settle(page);
      const header = page.locator('header.topbar');
      if (width === 1280) await header.getByRole('button', { name: new RegExp(OWNER.name) }).click();
      else await header.getByRole('button', { name: 'Menu' }).click();
      await page.screenshot({ path: `${OUT}web-look-menu-open-${width}-${scheme}.png` });
      // A heartbeat's form: its schedule, no check interval.
      await page.goto(`${server.origin}/monitors/new`);
      await settle(page);
      await page.getByLabel('Type').selectOption({ label: 'Heartbeat (pinged by your job)' });
      await page.getByRole('group', { name: 'Schedule' }).waitFor();
      await page.screenshot({ path: `${OUT}web-look-heartbeat-new-${width}-${scheme}.png`, fullPage: true });
      await context.close();
    }
  }
} finally {
  await browser.close();
  await server.stop();
  await targets.close();
}
