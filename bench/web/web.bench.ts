/**
 * The web app in headless Chromium on this machine (issue 16 item 8):
 *   - the monitors page with 10,000 monitors: time to interactive (first rows drawn and a row's checkbox answers a
 *     click) and to the whole list loaded; then scrolling (rAF-driven, 3 s) as frames per second and frame times;
 *   - the monitor detail over 90 days (period=90d: hourly buckets, ~2,160 points): navigation → figures and the
 *     uPlot chart drawn;
 *   - the first page's JavaScript: what a cold load of /sign-in and of the overview fetches, gzipped (-9).
 * Data: `tocsin demo`'s generator writes --history-monitors monitors × 90 days of checks (every 10 min), the rest up
 * to --monitors are plain monitors; one owner signs in with a password set through the real reset flow (mail sink).
 * Usage: npm run web:build && node bench/web/web.bench.ts [--monitors 10000] [--history-monitors 10] [--runs 3]
 */
import { mkdtempSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { generateDemo } from '../../src/cli/demo/demo.generator.ts';
import { loadConfig } from '../../src/config/index.ts';
import { createTocsin } from '../../src/main.ts';
import { ManualClock } from '../../src/platform/clock.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { launchChromium, noLoadingText, signIn } from '../../test/browser/web-app.harness.ts';
import { startSmtpServer } from '../../test/fakes/smtp.fake.ts';

const { values: args } = parseArgs({
  options: {
    monitors: { type: 'string', default: '10000' },
    'history-monitors': { type: 'string', default: '10' },
    runs: { type: 'string', default: '3' },
  },
});
const MONITORS = Number(args.monitors);
const HISTORY = Number(args['history-monitors']);
const RUNS = Number(args.runs);
const EMAIL = 'bench@example.com';
const PASSWORD = 'bench password 123';

const smtp = await startSmtpServer();
const dataDir = mkdtempSync(join(tmpdir(), 'tocsin-bench-web-'));
const config = loadConfig({
  env: { TOCSIN_DATA_DIR: dataDir, NODE_ENV: 'production', LOG_LEVEL: 'warn', TOCSIN_CONFIG: '/virtual.json' },
  readFile: () => JSON.stringify({ smtp: smtp.url, default_plan: 'enterprise' }),
  isTty: false,
});
const started = Date.now();
const clock = new ManualClock(started);
const logger = createLogger({ level: 'warn', pretty: false, destination: process.stderr });
const tocsin = await createTocsin(config, { logger, clock, background: false });

process.stderr.write(`seeding ${HISTORY} monitors × 90 days of history…\n`);
const t0 = performance.now();
const demo = await generateDemo(
  { services: tocsin.services, database: tocsin.database, clock, logger },
  {
    monitors: HISTORY,
    days: 90,
    intervalSeconds: 600,
    now: started,
    seed: 16,
    organizationName: 'Bench',
    email: EMAIL,
  },
);
clock.set(Date.now());
process.stderr.write(`  ${demo.checks} checks in ${((performance.now() - t0) / 1000).toFixed(0)} s\n`);
const actor = (await tocsin.services.auth.authenticate(demo.api_key))!;
const ctx = { actor, db: tocsin.database, clock };
for (let done = HISTORY; done < MONITORS; done += 500) {
  const n = Math.min(500, MONITORS - done);
  await tocsin.services.monitors.createMany(
    ctx,
    Array.from({ length: n }, (_, i) => ({
      input: {
        name: `Service ${String(done + i).padStart(5, '0')}`,
        target: `https://service-${done + i}.example.com/health`,
        tags: [`team-${(done + i) % 20}`],
      },
      shapeDetails: [],
      field: '',
    })),
  );
}
process.stderr.write(`  ${MONITORS} monitors\n`);

await tocsin.app.listen({ port: 0, host: '127.0.0.1' });
const origin = `http://127.0.0.1:${(tocsin.app.server.address() as AddressInfo).port}`;
// The owner's password, through the real reset flow.
await fetch(`${origin}/api/v1/auth/password-reset`, {
  method: 'POST',
  headers: { 'content-type': 'application/json', origin },
  body: JSON.stringify({ email: EMAIL }),
});
for (let i = 0; i < 100 && smtp.messages.length === 0; i++) await new Promise((r) => setTimeout(r, 100));
const token = /reset-password\?token=([A-Za-z0-9_-]+)/.exec(
  smtp.messages[0]!.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '='),
)![1]!;
const confirmed = await fetch(`${origin}/api/v1/auth/password-reset/confirm`, {
  method: 'POST',
  headers: { 'content-type': 'application/json', origin },
  body: JSON.stringify({ token, password: PASSWORD }),
});
if (confirmed.status !== 204) throw new Error(`password reset: ${confirmed.status} ${await confirmed.text()}`);

const browser = await launchChromium();
const results: Record<string, unknown> = { monitors: MONITORS, history_monitors: HISTORY, runs: RUNS };
try {
  // First page JavaScript, cold (nothing cached): /sign-in, then the overview after signing in.
  const cold = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await cold.newPage();
  const js = new Map<string, number>();
  page.on('response', (res) => {
    if (res.url().endsWith('.js'))
      void res.body().then((body) => js.set(new URL(res.url()).pathname, gzipSync(body, { level: 9 }).length));
  });
  await page.goto(`${origin}/sign-in`);
  await page.getByRole('button', { name: 'Sign in' }).waitFor();
  await page.waitForTimeout(300);
  const signInJs = [...js.values()].reduce((a, b) => a + b, 0);
  await signIn(page, EMAIL, PASSWORD);
  await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
  await page.waitForTimeout(500);
  const overviewJs = [...js.values()].reduce((a, b) => a + b, 0);
  results.first_page_js_gzip_kb = {
    sign_in: +(signInJs / 1024).toFixed(1),
    sign_in_then_overview: +(overviewJs / 1024).toFixed(1),
  };
  const state = await cold.storageState();
  await cold.close();

  const monitorsRuns: Record<string, number>[] = [];
  const detailRuns: number[] = [];
  const detailBusy: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, storageState: state });
    const p = await context.newPage();
    // Main-thread busy time (CDP Performance.TaskDuration): what the page cost, apart from waiting for a CPU on
    // a shared machine.
    const cdp = await context.newCDPSession(p);
    await cdp.send('Performance.enable');
    const busy = async () => {
      const { metrics } = await cdp.send('Performance.getMetrics');
      return (metrics.find((m) => m.name === 'TaskDuration')?.value ?? 0) * 1000;
    };
    const busyStart = await busy();
    // History requests of the list (bars and sparklines), from navigation until the rows on screen after the
    // scroll have settled and asked for theirs.
    let historyRequests = 0;
    const countHistory = (r: { url(): string }) => {
      if (new URL(r.url()).pathname.endsWith('/history')) historyRequests += 1;
    };
    p.on('request', countHistory);
    // Monitors page: navigation → first rows drawn → a row's checkbox answers a click (interactive).
    const start = Date.now();
    await p.goto(`${origin}/monitors`);
    const firstBox = p.locator('table.monitors tbody tr input[type=checkbox]').first();
    await firstBox.waitFor();
    const firstRows = Date.now() - start;
    await firstBox.click();
    await p.locator('.bulk-bar').waitFor();
    const interactive = Date.now() - start;
    const interactiveBusy = (await busy()) - busyStart;
    await p.getByText(`${MONITORS} monitors`, { exact: true }).waitFor({ timeout: 120_000 });
    const complete = Date.now() - start;
    const completeBusy = (await busy()) - busyStart;
    await firstBox.click();
    const beforeScroll = await busy();
    // Scrolling: 3 s of rAF-driven scrolling through the 10,000 rows, frame times measured in the page.
    const scroll = await p.evaluate(async () => {
      // This runs in the page (the bench's tsconfig has no DOM types).
      const window = globalThis as unknown as {
        scrollBy(x: number, y: number): void;
        scrollY: number;
        requestAnimationFrame(step: (now: number) => void): number;
      };
      const requestAnimationFrame = (step: (now: number) => void) => window.requestAnimationFrame(step);
      const frames: number[] = [];
      let last = performance.now();
      const end = last + 3000;
      await new Promise<void>((done) => {
        const step = (now: number) => {
          frames.push(now - last);
          last = now;
          window.scrollBy(0, 120);
          if (now < end) requestAnimationFrame(step);
          else done();
        };
        requestAnimationFrame(step);
      });
      frames.shift();
      const sorted = [...frames].sort((a, b) => a - b);
      const total = frames.reduce((a, b) => a + b, 0);
      return {
        frames: frames.length,
        fps: (frames.length * 1000) / total,
        p95_frame_ms: sorted[Math.floor(sorted.length * 0.95)]!,
        max_frame_ms: sorted[sorted.length - 1]!,
        scrolled_px: window.scrollY,
      };
    });
    const scrollBusy = (await busy()) - beforeScroll;
    await p.waitForTimeout(1500);
    p.off('request', countHistory);
    monitorsRuns.push({
      first_rows_ms: firstRows,
      interactive_ms: interactive,
      interactive_main_thread_ms: interactiveBusy,
      all_loaded_ms: complete,
      all_loaded_main_thread_ms: completeBusy,
      ...scroll,
      main_thread_ms_per_frame: scrollBusy / (scroll.frames || 1),
      history_requests: historyRequests,
    });

    // Monitor detail over 90 days.
    const id = demo.monitor_ids[0]!;
    const t = Date.now();
    await p.goto(`${origin}/monitors/${id}?period=90d`);
    await p.locator('.latency-chart canvas').waitFor();
    await p.waitForFunction(noLoadingText);
    detailRuns.push(Date.now() - t);
    // The counters start again with the new document: this is the detail page's own main-thread time.
    detailBusy.push(await busy());
    await context.close();
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const keys = Object.keys(monitorsRuns[0]!);
  results.monitors_page_median = Object.fromEntries(
    keys.map((k) => [k, +median(monitorsRuns.map((r) => r[k]!)).toFixed(1)]),
  );
  results.monitors_page_runs = monitorsRuns;
  results.monitor_detail_90d_ms = {
    median: median(detailRuns),
    runs: detailRuns,
    main_thread_median: +median(detailBusy).toFixed(0),
  };
  results.load_average = (await import('node:os')).loadavg().map((x) => +x.toFixed(1));
  process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
} finally {
  await browser.close();
  await tocsin.close();
  await smtp.close();
}
