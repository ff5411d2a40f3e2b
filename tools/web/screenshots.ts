/**
 * docs/images/web-*.png: every page of the web app in Chromium (1280 px, light; a few at 360 px and dark), on a
 * fresh `tocsin serve` with a little data. Run: `node tools/web/screenshots.ts` (needs /usr/bin/chromium and a
 * built app: `npm run web:build`); `--only report,sla` takes only the pages whose names start so.
 */
import { mkdirSync } from 'node:fs';
import {
  appPages,
  firstRun,
  settle,
  launchChromium,
  seedThroughSession,
  sessionApi,
  startReceiver,
  startServe,
  startTarget,
} from '../../test/browser/web-app.harness.ts';

const OUT = new URL('../../docs/images/', import.meta.url).pathname;
mkdirSync(OUT, { recursive: true });
const onlyAt = process.argv.indexOf('--only');
const only = onlyAt > 0 ? (process.argv[onlyAt + 1] ?? '').split(',') : null;
const wanted = (name: string) => !only || only.some((prefix) => name.startsWith(prefix));

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
  if (wanted('setup')) await page.screenshot({ path: `${OUT}web-setup.png` });
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
  const sla = await (
    await sessionApi(page, server.origin)
  )('POST', '/api/v1/sla-targets', {
    name: 'Checkout',
    monitor_ids: [ids.monitor, ids.downMonitor],
    target_percent: 99.9,
    period: 'monthly',
  });
  const slaId = (sla.body as { id: string }).id;
  // A custom report over the seeded monitors, delivered weekly; one run made now so that the page has a run to show.
  const call = await sessionApi(page, server.origin);
  const custom = await call('POST', '/api/v1/custom-reports', {
    name: 'Weekly customer report',
    period: 'last_7_days',
    timezone: 'Europe/Berlin',
    visibility: 'organization',
    widgets: [
      { kind: 'availability', title: 'Shop uptime', monitor_ids: [ids.monitor, ids.downMonitor] },
      { kind: 'performance', title: 'Shop speed', tags: ['web', 'api'] },
      { kind: 'sla', title: 'Checkout SLA', options: { sla_target_ids: [slaId] } },
    ],
  });
  const customId = (custom.body as { id: string }).id;
  const schedule = await call('POST', '/api/v1/scheduled-reports', {
    report_type: 'custom',
    custom_report_id: customId,
    frequency: 'weekly',
    day_of_week: 1,
    time_of_day: '08:00',
    timezone: 'Europe/Berlin',
    destination_ids: [ids.destination],
  });
  const scheduleId = (schedule.body as { id: string }).id;
  await call('POST', `/api/v1/scheduled-reports/${scheduleId}/run`);
  await new Promise((r) => setTimeout(r, 5000));
  const reportPages: [string, string][] = [
    ['reports', '/reports'],
    ['report-availability', '/reports/availability?period=last_24_hours&timezone=Europe%2FBerlin'],
    ['report-performance', '/reports/performance?period=last_24_hours&timezone=Europe%2FBerlin'],
    ['report-sla', '/reports/sla?period=last_30_days&timezone=Europe%2FBerlin'],
    ['report-incidents', '/reports/incidents?period=last_24_hours&timezone=Europe%2FBerlin'],
    ['report-monitor-health', '/reports/monitor-health?period=last_24_hours&timezone=Europe%2FBerlin'],
    ['sla-target-edit', `/sla-targets/${slaId}`],
    ['custom-report-view', `/custom-reports/${customId}`],
    ['custom-report-edit', `/custom-reports/${customId}/edit`],
    ['scheduled-report', `/scheduled-reports/${scheduleId}`],
  ];
  for (const [name, path] of [...appPages({ ...ids, incident }), ...reportPages]) {
    if (!wanted(name)) continue;
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
    ['report-availability-360-dark', '/reports/availability?period=last_24_hours&timezone=Europe%2FBerlin'],
    ['sla-target-edit-360-dark', `/sla-targets/${slaId}`],
    ['scheduled-report-360-dark', `/scheduled-reports/${scheduleId}`],
  ] as const) {
    if (!wanted(name)) continue;
    await small.goto(`${server.origin}${path}`);
    await settle(small);
    await small.screenshot({ path: `${OUT}web-${name}.png`, fullPage: true });
  }
  await page.goto(`${server.origin}/`);
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL(/sign-in/);
  if (wanted('sign-in')) await page.screenshot({ path: `${OUT}web-sign-in.png` });
  process.stdout.write(`screenshots in ${OUT}\n`);
} finally {
  await browser.close();
  await server.stop();
  await Promise.all([up.close(), down.close(), receiver.close()]);
}
