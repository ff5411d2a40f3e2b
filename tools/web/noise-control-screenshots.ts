/**
 * docs/images/web-noise-*.png: the noise-control pages of the web app in Chromium — maintenance windows, a window's
 * editor with its covered-monitors preview, silences, the mute form on a monitor's page, the monitor list with a
 * child blocked by its parent — on a fresh `tocsin serve` with a little data.
 * Run: `node tools/web/noise-control-screenshots.ts` (needs /usr/bin/chromium and a built app: `npm run web:build`).
 * By default the 1280 px light shots and the 360 px dark monitor list go to docs/images; `--review DIR` writes every
 * page at 360 and 1280 px in light and dark to DIR instead (to look at before a change to these pages).
 */
import { mkdirSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import {
  firstRun,
  launchChromium,
  sessionApi,
  settle,
  startServe,
  startTarget,
} from '../../test/browser/web-app.harness.ts';

const reviewAt = process.argv.indexOf('--review');
const review = reviewAt > 0 ? process.argv[reviewAt + 1] : undefined;
const OUT = review ?? new URL('../../docs/images/', import.meta.url).pathname;
mkdirSync(OUT, { recursive: true });

type Theme = 'light' | 'dark';
const SHOTS: ReadonlyArray<{ width: number; theme: Theme }> = review
  ? [
      { width: 1280, theme: 'light' },
      { width: 1280, theme: 'dark' },
      { width: 360, theme: 'light' },
      { width: 360, theme: 'dark' },
    ]
  : [{ width: 1280, theme: 'light' }];
/** In docs: the 1280 px light shots, and this page at 360 px, dark. */
const DOCS_PHONE = 'monitors-blocked';

const [server, router, service, browser] = await Promise.all([
  startServe('sqlite'),
  startTarget(),
  startTarget(),
  launchChromium(),
]);
try {
  const setup = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await setup.newPage();
  await firstRun(page, server.origin);
  const call = await sessionApi(page, server.origin);
  const create = async (path: string, body: Record<string, unknown>) => {
    const res = await call('POST', path, body);
    if (res.status !== 201) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return (res.body as { id: string }).id;
  };
  const monitor = (body: Record<string, unknown>) => create('/api/v1/monitors', { interval_seconds: 60, ...body });
  // A router and a service behind it, checked every second, both going down: the service is blocked by the router.
  const routerId = await monitor({
    name: 'Edge router',
    target: router.url,
    interval_seconds: 1,
    config: { failure_threshold: 1 },
  });
  const serviceId = await monitor({
    name: 'Billing API',
    target: service.url,
    interval_seconds: 1,
    tags: ['billing'],
    config: { failure_threshold: 3, depends_on: [routerId] },
  });
  const shop = await monitor({ name: 'Checkout', target: 'http://127.0.0.1:9/checkout', tags: ['shop', 'db'] });
  await monitor({ name: 'Product search', target: 'http://127.0.0.1:9/search', tags: ['shop'] });
  await monitor({ name: 'Orders database', target: 'http://127.0.0.1:9/orders-db', tags: ['db'] });
  await monitor({ name: 'Marketing site with a rather long name', target: 'http://127.0.0.1:9/www' });
  const now = Date.now();
  const windowId = await create('/api/v1/maintenance-windows', {
    name: 'Database upgrade',
    description: 'PostgreSQL 17 → 18; writes pause for up to ten minutes.',
    tags: ['db'],
    schedule: {
      type: 'once',
      starts_at: new Date(now - 10 * 60_000).toISOString(),
      ends_at: new Date(now + 50 * 60_000).toISOString(),
    },
    timezone: 'Europe/Berlin',
  });
  await create('/api/v1/maintenance-windows', {
    name: 'Sunday patching',
    tags: ['shop'],
    schedule: { type: 'recurring', rrule: 'FREQ=WEEKLY;BYDAY=SU', start_time: '03:00', duration_minutes: 90 },
    timezone: 'Europe/Berlin',
    announce_minutes_before: 60,
  });
  await create('/api/v1/silences', {
    matchers: { tags: ['billing'], events: ['down', 'still_down'] },
    starts_at: new Date(now).toISOString(),
    ends_at: new Date(now + 2 * 3_600_000).toISOString(),
    comment: 'Billing provider incident INC-4711, we are on it',
  });
  const mute = await call('POST', `/api/v1/monitors/${shop}/mute`, { minutes: 30, comment: 'Deploying' });
  if (mute.status !== 201 && mute.status !== 200) throw new Error(`mute: ${mute.status}`);
  router.up = false;
  service.up = false;
  for (let i = 0; i < 60; i++) {
    const res = await call('GET', `/api/v1/monitors/${serviceId}`);
    if ((res.body as { blocked_by?: string[] }).blocked_by?.length) break;
    await new Promise((r) => setTimeout(r, 1000));
  }
  const storage = await setup.storageState();

  const pages: ReadonlyArray<{ name: string; path: string; act?: (p: Page) => Promise<void> }> = [
    { name: 'maintenance-windows', path: '/maintenance-windows' },
    {
      name: 'maintenance-window-edit',
      path: `/maintenance-windows/${windowId}`,
      act: async (p) => {
        await p.getByRole('button', { name: 'Preview' }).click();
        await p.getByTestId('preview').getByRole('listitem').first().waitFor();
      },
    },
    { name: 'silences', path: '/silences' },
    { name: 'monitor-mute', path: `/monitors/${shop}` },
    { name: 'monitors-blocked', path: '/monitors' },
  ];
  const contexts = new Map<string, BrowserContext>();
  const contextFor = async (width: number, theme: Theme, b: Browser) => {
    const key = `${width}-${theme}`;
    if (!contexts.has(key)) {
      contexts.set(
        key,
        await b.newContext({
          viewport: { width, height: width < 600 ? 740 : 800 },
          colorScheme: theme,
          storageState: storage,
        }),
      );
    }
    return contexts.get(key)!;
  };
  const take = async (name: string, path: string, width: number, theme: Theme, act?: (p: Page) => Promise<void>) => {
    const p = await (await contextFor(width, theme, browser)).newPage();
    await p.goto(`${server.origin}${path}`);
    await settle(p);
    if (act) await act(p);
    await p.waitForTimeout(300);
    const file = review || width !== 1280 ? `web-noise-${name}-${width}-${theme}.png` : `web-noise-${name}.png`;
    await p.screenshot({ path: `${OUT}/${file}`, fullPage: true });
    await p.close();
  };
  for (const { name, path, act } of pages) {
    for (const { width, theme } of SHOTS) await take(name, path, width, theme, act);
  }
  if (!review) {
    const phone = pages.find((x) => x.name === DOCS_PHONE)!;
    await take(phone.name, phone.path, 360, 'dark', phone.act);
  }
  process.stdout.write(`screenshots in ${OUT}\n`);
} finally {
  await browser.close();
  await server.stop();
  await Promise.all([router.close(), service.close()]);
}
