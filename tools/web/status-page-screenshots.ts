/**
 * docs/images/web-status-*.png: status-page communication in Chromium (DECISIONS §18) on a fresh `tocsin serve` with
 * a little data — the public page (groups, an open notice with its updates, maintenance, the subscribe form) at
 * 1280 px and 360 px, the page's settings (layout, domain, access, subscriptions), its notices and the notice editor
 * with its live preview.
 * Run: `node tools/web/status-page-screenshots.ts` (needs /usr/bin/chromium and a built app: `npm run web:build`).
 */
import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { firstRun, launchChromium, sessionApi, settle, startServe } from '../../test/browser/web-app.harness.ts';

const OUT = new URL('../../docs/images/', import.meta.url).pathname;
mkdirSync(OUT, { recursive: true });

const [server, browser] = await Promise.all([startServe('sqlite'), launchChromium()]);
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
  const monitor = (name: string, tags: string[] = []) =>
    create('/api/v1/monitors', {
      name,
      target: `http://127.0.0.1:9/${name.toLowerCase().replace(/\W+/g, '-')}`,
      interval_seconds: 60,
      tags,
    });
  const api = await monitor('Public API');
  const web = await monitor('Website');
  const checkout = await monitor('Checkout');
  const search = await monitor('Product search');
  const db = await monitor('Orders database', ['db']);
  const pageId = await create('/api/v1/status-pages', {
    slug: 'acme',
    title: 'Acme status',
    groups: [
      { name: 'Storefront', monitor_ids: [web, checkout, search] },
      { name: 'Platform', monitor_ids: [api, db], collapsed: false },
    ],
    timezone: 'Europe/Berlin',
    subscriptions_enabled: true,
  });
  const now = Date.now();
  await create('/api/v1/maintenance-windows', {
    name: 'Database upgrade',
    description: 'PostgreSQL 17 → 18; writes pause for up to ten minutes.',
    tags: ['db'],
    status_page_ids: [pageId],
    announce_minutes_before: 24 * 60,
    schedule: {
      type: 'once',
      starts_at: new Date(now + 3 * 3_600_000).toISOString(),
      ends_at: new Date(now + 4 * 3_600_000).toISOString(),
    },
    timezone: 'Europe/Berlin',
  });
  const notice = await create(`/api/v1/status-pages/${pageId}/notices`, {
    kind: 'incident',
    title: 'Slow checkout for some customers',
    impact: 'minor',
    status: 'investigating',
    affected_monitor_ids: [checkout],
    body: 'Some payments take **up to a minute**. We are looking into it.',
    published: true,
  });
  const update = await call('POST', `/api/v1/status-pages/${pageId}/notices/${notice}/updates`, {
    status: 'identified',
    body: 'A payment provider is slow to answer. We are routing payments to the second provider.\n\n- Orders are not lost\n- Retries are safe',
  });
  if (update.status !== 201) throw new Error(`update: ${update.status}`);
  const storage = await setup.storageState();

  const take = async (name: string, path: string, width: number, act?: (p: Page) => Promise<void>) => {
    const context = await browser.newContext({
      viewport: { width, height: width < 600 ? 740 : 800 },
      colorScheme: 'light',
      storageState: storage,
    });
    const p = await context.newPage();
    await p.goto(`${server.origin}${path}`);
    await settle(p);
    if (act) await act(p);
    await p.waitForTimeout(300);
    await p.screenshot({ path: `${OUT}/web-status-${name}.png`, fullPage: true });
    await context.close();
  };
  await take('public-page', '/status/acme', 1280);
  await take('public-page-360', '/status/acme', 360);
  await take('settings', `/status-pages/${pageId}`, 1280);
  await take('notices', `/status-pages/${pageId}/notices`, 1280);
  await take('notice-editor', `/status-pages/${pageId}/notices/${notice}`, 1280);
  process.stdout.write(`screenshots in ${OUT}\n`);
} finally {
  await browser.close();
  await server.stop();
}
