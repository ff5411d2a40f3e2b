/**
 * docs/images/web-*.png: every page of the web app in Chromium (1280 px, light; a few at 360 px and dark), on a
 * fresh `tocsin serve` with a little data. Run: `node tools/web/screenshots.ts` (needs /usr/bin/chromium and a
 * built app: `npm run web:build`).
 */
import { mkdirSync } from 'node:fs';
import {
  appPages,
  firstRun,
  settle,
  launchChromium,
  seedThroughSession,
  startReceiver,
  startServe,
  startTarget,
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
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: 'light' });
  const page = await context.newPage();
  await page.goto(`${server.origin}/setup`);
  await page.screenshot({ path: `${OUT}web-setup.png` });
  await firstRun(page, server.origin);
  const ids = await seedThroughSession(page, server.origin, { up: up.url, down: down.url, hook: receiver.url });
  // Let the engine check a few times and open the failing monitor's incident.
  let incident = '';
  for (let i = 0; i < 60 && !incident; i++) {
    await new Promise((r) => setTimeout(r, 1000));
    const res = await page.request.get(`${server.origin}/api/v1/incidents?limit=1`);
    incident = ((await res.json()) as { data: { id: string }[] }).data[0]?.id ?? '';
  }
  await new Promise((r) => setTimeout(r, 3000));
  for (const [name, path] of appPages({ ...ids, incident })) {
    await page.goto(`${server.origin}${path}`);
    await settle(page);
    await page.screenshot({ path: `${OUT}web-${name}.png`, fullPage: name !== 'monitors' });
  }
  const phone = await browser.newContext({
    viewport: { width: 360, height: 740 },
    colorScheme: 'dark',
    storageState: await context.storageState(),
  });
  const small = await phone.newPage();
  for (const [name, path] of [
    ['monitors-360-dark', '/monitors'],
    ['monitor-detail-360-dark', `/monitors/${ids.downMonitor}?period=1h`],
  ] as const) {
    await small.goto(`${server.origin}${path}`);
    await settle(small);
    await small.screenshot({ path: `${OUT}web-${name}.png`, fullPage: true });
  }
  await page.goto(`${server.origin}/`);
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL(/sign-in/);
  await page.screenshot({ path: `${OUT}web-sign-in.png` });
  process.stdout.write(`screenshots in ${OUT}\n`);
} finally {
  await browser.close();
  await server.stop();
  await Promise.all([up.close(), down.close(), receiver.close()]);
}
