/**
 * Issue 36 item 7: the monitors list with 10,000 monitors in Chromium, against a real `tocsin serve` (SQLite),
 * started as the README says (`tocsin admin bootstrap`, `serve`; the owner's password through `admin
 * password-reset-link`), the monitors made through the API (paused: this measures the list, not the checks).
 * Per run, in a fresh browser context (cold HTTP cache, signed in by cookie):
 *   - usable: navigation → first rows drawn and a row's checkbox answers a click (the bulk bar shows);
 *   - bytes transferred before usable (CDP Network: encoded bytes of every response finished by then, the app's
 *     JavaScript and CSS included) and requests made by then;
 *   - scrolling right after (rows still arriving as the view goes down) and again from the top once the pages
 *     scrolled through are in: 3 s each, rAF-driven (120 px a frame), as frames per second and frame times.
 *
 *   npm run web:build && node bench/web/monitor-list.bench.ts [--monitors 10000] [--runs 3] [--root /other/tree]
 * `--root`: serve another tree (e.g. the main branch, for a before/after in the same session).
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import { chromium, type Page } from 'playwright-core';
import { waitUntilReady } from '../support/serve-ready.ts';

const { values: args } = parseArgs({
  options: {
    monitors: { type: 'string', default: '10000' },
    runs: { type: 'string', default: '3' },
    root: { type: 'string', default: fileURLToPath(new URL('../../', import.meta.url)) },
  },
});
const MONITORS = Number(args.monitors);
const RUNS = Number(args.runs);
const ROOT = args.root;
const EMAIL = 'bench@example.com';
const PASSWORD = 'bench password 123';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const dataDir = mkdtempSync(join(tmpdir(), 'tocsin-bench-list-'));
const port = 20_000 + Math.floor(Math.random() * 20_000);
const origin = `http://127.0.0.1:${port}`;
writeFileSync(join(dataDir, 'tocsin.json'), JSON.stringify({ public_url: origin }));
const env = {
  ...process.env,
  TOCSIN_DATA_DIR: dataDir,
  TOCSIN_CONFIG: join(dataDir, 'tocsin.json'),
  PORT: String(port),
  HOST: '127.0.0.1',
  NODE_ENV: 'production',
  LOG_LEVEL: 'warn',
};
const bin = join(ROOT, 'bin/tocsin.js');
const run = async (...argv: string[]) =>
  JSON.parse(
    (await promisify(execFile)(process.execPath, [bin, ...argv], { env, cwd: ROOT })).stdout.trim().split('\n').at(-1)!,
  ) as Record<string, string>;
const { api_key: bootstrapKey } = await run(
  'admin',
  'bootstrap',
  '--org',
  'Bench',
  '--email',
  EMAIL,
  '--plan',
  'enterprise',
);
let key = bootstrapKey!;
const serve: ChildProcess = spawn(process.execPath, [bin, 'serve'], {
  env,
  cwd: ROOT,
  stdio: ['ignore', 'ignore', 'inherit'],
});
try {
  await waitUntilReady(serve, origin);
  const call = async (method: string, path: string, body?: unknown, auth = true) => {
    for (;;) {
      const res = await fetch(`${origin}${path}`, {
        method,
        headers: { ...(auth && { authorization: `Bearer ${key}` }), 'content-type': 'application/json', origin },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      });
      if (res.status === 429) {
        await sleep(1000 * Number(res.headers.get('retry-after') ?? 1));
        continue;
      }
      const text = await res.text();
      if (res.status >= 300) throw new Error(`${method} ${path} → ${res.status} ${text}`);
      return text ? (JSON.parse(text) as Record<string, unknown>) : {};
    }
  };
  // A key's default budget is 120 writes a minute: the monitors are made with a key allowed the most (100,000).
  const made = await call('POST', '/api/v1/api-keys', {
    name: 'bench',
    scopes: ['monitors:read', 'monitors:create'],
    rate_limits: { read_per_minute: 100_000, write_per_minute: 100_000, delete_per_minute: 100_000 },
  });
  key = made.key as string;
  const t0 = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < MONITORS) {
        const i = next++;
        await call('POST', '/api/v1/monitors', {
          name: `Service ${String(i).padStart(5, '0')}`,
          target: `https://service-${i}.example.com/health`,
          tags: [`team-${i % 20}`],
          paused: true,
        });
      }
    }),
  );
  process.stderr.write(`${MONITORS} monitors through the API in ${((performance.now() - t0) / 1000).toFixed(0)} s\n`);
  const { link } = await run('admin', 'password-reset-link', '--email', EMAIL);
  const token = new URL(link!).searchParams.get('token');
  await call('POST', '/api/v1/auth/password-reset/confirm', { token, password: PASSWORD }, false);

  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  const results: Record<string, unknown>[] = [];
  try {
    const first = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const signIn = await first.newPage();
    await signIn.goto(`${origin}/sign-in`);
    await signIn.getByLabel('Email').fill(EMAIL);
    await signIn.getByLabel('Password').fill(PASSWORD);
    await signIn.getByRole('button', { name: 'Sign in' }).click();
    await signIn.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    const state = await first.storageState();
    await first.close();
    for (let r = 0; r < RUNS; r++) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, storageState: state });
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      let bytes = 0;
      let requests = 0;
      // Bytes by kind: the app (HTML, JS, CSS), the list's pages, the rows' history (bars, sparklines), the rest.
      const kinds = new Map<string, string>();
      const byKind: Record<string, number> = {};
      cdp.on('Network.requestWillBeSent', (e: { requestId: string; request: { url: string } }) => {
        const path = new URL(e.request.url).pathname;
        kinds.set(
          e.requestId,
          path.startsWith('/api/v1/monitors/history')
            ? 'history'
            : path.startsWith('/api/v1/monitors')
              ? 'list'
              : path.startsWith('/api/')
                ? 'other_api'
                : 'app',
        );
      });
      cdp.on('Network.loadingFinished', (e: { requestId: string; encodedDataLength: number }) => {
        bytes += e.encodedDataLength;
        requests += 1;
        const kind = kinds.get(e.requestId) ?? 'other';
        byKind[kind] = (byKind[kind] ?? 0) + e.encodedDataLength;
      });
      const start = Date.now();
      await page.goto(`${origin}/monitors`);
      const box = page.locator('table.monitors tbody tr input[type=checkbox]').first();
      await box.waitFor({ timeout: 120_000 });
      await box.click();
      await page.locator('.bulk-bar').waitFor({ timeout: 120_000 });
      const usableMs = Date.now() - start;
      const usable = {
        usable_ms: usableMs,
        kb_before_usable: +(bytes / 1024).toFixed(1),
        kb_before_usable_by_kind: Object.fromEntries(
          Object.entries(byKind).map(([k, v]) => [k, +(v / 1024).toFixed(1)]),
        ),
        requests_before_usable: requests,
      };
      await box.click();
      const whileLoading = await scroll(page);
      const kbAfterScroll = +(bytes / 1024).toFixed(1);
      await page.evaluate(() => (globalThis as unknown as { scrollTo(x: number, y: number): void }).scrollTo(0, 0));
      await page.waitForTimeout(1500);
      const after = await scroll(page);
      results.push({
        ...usable,
        scroll_while_loading: whileLoading,
        scroll_after: after,
        kb_after_first_scroll: kbAfterScroll,
      });
      await context.close();
    }
  } finally {
    await browser.close();
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const pick = (f: (r: Record<string, any>) => number) => median(results.map(f)); // eslint-disable-line @typescript-eslint/no-explicit-any -- figures read back
  process.stdout.write(
    `${JSON.stringify(
      {
        tree: ROOT,
        machine: `${cpus().length} × ${cpus()[0]?.model}`,
        at: new Date().toISOString(),
        load_average: loadavg().map((x) => +x.toFixed(1)),
        monitors: MONITORS,
        median: {
          usable_ms: pick((r) => r.usable_ms),
          kb_before_usable: pick((r) => r.kb_before_usable),
          fps_while_loading: +pick((r) => r.scroll_while_loading.fps).toFixed(1),
          fps_after: +pick((r) => r.scroll_after.fps).toFixed(1),
        },
        runs: results,
      },
      null,
      2,
    )}\n`,
  );
} finally {
  serve.kill('SIGTERM');
  await new Promise((r) => serve.once('exit', r));
  rmSync(dataDir, { recursive: true, force: true });
}

/** 3 s of rAF-driven scrolling (120 px a frame), measured in the page. */
async function scroll(page: Page) {
  return page.evaluate(async () => {
    // This runs in the page (the bench's tsconfig has no DOM types).
    const w = globalThis as unknown as {
      scrollBy(x: number, y: number): void;
      scrollY: number;
      requestAnimationFrame(step: (now: number) => void): number;
    };
    const frames: number[] = [];
    let last = performance.now();
    const end = last + 3000;
    await new Promise<void>((done) => {
      const step = (now: number) => {
        frames.push(now - last);
        last = now;
        w.scrollBy(0, 120);
        if (now < end) w.requestAnimationFrame(step);
        else done();
      };
      w.requestAnimationFrame(step);
    });
    frames.shift();
    const sorted = [...frames].sort((a, b) => a - b);
    const total = frames.reduce((a, b) => a + b, 0);
    return {
      fps: +((frames.length * 1000) / total).toFixed(1),
      p95_frame_ms: +sorted[Math.floor(sorted.length * 0.95)]!.toFixed(1),
      max_frame_ms: +sorted[sorted.length - 1]!.toFixed(1),
      scrolled_px: w.scrollY,
    };
  });
}
