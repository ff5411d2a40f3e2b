/**
 * docs/images/web-polish-*.png: the pages the finishing pass changed (destination types by product name, the
 * monitor page of a new monitor, "Duplicate", the not-found page, the header menu and a toast), at 1280 and 360 px,
 * light and dark, on a fresh `tocsin serve`. Run: `node tools/web/polish-screenshots.ts` (needs /usr/bin/chromium
 * and a built app: `npm run web:build`).
 */
import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import {
  firstRun,
  launchChromium,
  seedThroughSession,
  sessionApi,
  settle,
  signIn,
  startReceiver,
  startServe,
  startTarget,
  OWNER,
} from '../../test/browser/web-app.harness.ts';

const OUT = new URL('../../docs/images/', import.meta.url).pathname;
mkdirSync(OUT, { recursive: true });

const [server, up, down, receiver, browser] = await Promise.all([
  startServe('sqlite'),
  startTarget(),
  startTarget(),
  startReceiver(),
  launchChromium(),
]);
try {
  down.up = false;
  const setup = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const first = await setup.newPage();
  await firstRun(first, server.origin);
  const ids = await seedThroughSession(first, server.origin, { up: up.url, down: down.url, hook: receiver.url });
  const call = await sessionApi(first, server.origin);
  await call('POST', '/api/v1/auth/organization/webhooks', {
    type: 'oncall_pager1',
    name: 'On-call',
    config: { integration_key: 'a'.repeat(32) },
  });
  await call('POST', '/api/v1/auth/organization/webhooks', {
    type: 'chatapp2_webhook',
    name: 'Team chat',
    config: { url: 'https://discord.com/api/webhooks/1/abc' },
  });
  await setup.close();

  const shoot = async (page: Page, name: string, width: number, scheme: string) =>
    page.screenshot({ path: `${OUT}web-polish-${name}-${width}-${scheme}.png`, fullPage: false });

  for (const scheme of ['light', 'dark'] as const) {
    for (const width of [1280, 360]) {
      const context = await browser.newContext({ viewport: { width, height: 800 }, colorScheme: scheme });
      const page = await context.newPage();
      await page.goto(`${server.origin}/sign-in`);
      await signIn(page, OWNER.email, OWNER.password);
      await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();

      await page.goto(`${server.origin}/destinations`);
      await settle(page);
      await shoot(page, 'destinations', width, scheme);

      await page.goto(`${server.origin}/destinations/new`);
      await settle(page);
      await page.getByLabel('Type').selectOption('oncall_pager1');
      await shoot(page, 'destination-new', width, scheme);

      // A monitor made just now: its page before the first minute's figures exist.
      const fresh = await (
        await sessionApi(page, server.origin)
      )('POST', '/api/v1/monitors', { name: `Checkout ${scheme} ${width}`, target: up.url });
      await new Promise((r) => setTimeout(r, 2500));
      await page.goto(`${server.origin}/monitors/${(fresh.body as { id: string }).id}`);
      await settle(page);
      await shoot(page, 'monitor-new-checks', width, scheme);

      await page.goto(`${server.origin}/monitors/${ids.monitor}`);
      await settle(page);
      await page.getByRole('button', { name: 'Pause' }).click();
      await page.locator('.toasts').getByText('Monitor paused.').waitFor();
      await shoot(page, 'toast', width, scheme);
      await page.getByRole('button', { name: 'Resume' }).click();
      await page.locator('.toasts').getByText('Monitor resumed.').waitFor();

      await page.goto(`${server.origin}/monitors/new?duplicate=${ids.monitor}`);
      await settle(page);
      await shoot(page, 'monitor-duplicate', width, scheme);

      await page.goto(`${server.origin}/nope`);
      await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
      await shoot(page, 'not-found', width, scheme);

      if (width === 360) {
        await page.goto(`${server.origin}/`);
        await settle(page);
        await shoot(page, 'header', width, scheme);
        await page.getByRole('button', { name: 'Menu' }).click();
        await shoot(page, 'menu-open', width, scheme);
      }
      await context.close();
    }
  }
  console.log(`screenshots in ${OUT}`);
} finally {
  await browser.close();
  await server.stop();
  await Promise.all([up.close(), down.close(), receiver.close()]);
}
