/**
 * A real `tocsin serve` child process (SQLite or PostgreSQL) with a real check engine, a target that can be
 * switched between up and down, a mail sink, a webhook receiver and Debian's Chromium: what the web-app browser
 * tests drive. The process's public URL is its own origin, so mailed links open the web app.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { Dialect } from '../../src/platform/db/index.ts';
import { startSmtpServer, type FakeSmtpServer } from '../fakes/smtp.fake.ts';
import { createTestDatabase, type TestDatabase } from '../support/databases.ts';
import { testServices } from '../support/services.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const BIN = join(ROOT, 'bin/tocsin.js');

export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const srv = createNetServer();
    srv.once('error', fail);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as AddressInfo;
      srv.close(() => done(port));
    });
  });
}

/** An HTTP target whose answer the test switches (200 "ok" or 503). */
export interface SwitchableTarget {
  url: string;
  up: boolean;
  close(): Promise<void>;
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

export async function startTarget(): Promise<SwitchableTarget> {
  const state = { up: true };
  const server = createServer((_req, res) => {
    res.writeHead(state.up ? 200 : 503, { 'content-type': 'text/plain' });
    res.end(state.up ? 'ok' : 'unavailable');
  });
  const url = await listen(server);
  return {
    url: `${url}/health`,
    get up() {
      return state.up;
    },
    set up(value: boolean) {
      state.up = value;
    },
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

/** Records the JSON bodies POSTed to it; answers 200. */
export interface Receiver {
  url: string;
  bodies: unknown[];
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const bodies: unknown[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      try {
        bodies.push(JSON.parse(text));
      } catch {
        bodies.push(text);
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"ok":true}');
    });
  });
  const url = await listen(server);
  return { url: `${url}/hook`, bodies, close: () => new Promise<void>((done) => server.close(() => done())) };
}

export interface WebAppServer {
  origin: string;
  smtp: FakeSmtpServer;
  /** The process's environment (data directory, config, database): `tocsin admin …` with it acts on this server. */
  env: Record<string, string>;
  stop(): Promise<void>;
  output(): string;
}

/** Starts `tocsin serve` on a free port with its engine running checks every second on loopback targets. */
/** `config`: more settings of the server's config file (e.g. `regions`), on top of the harness's own. */
export async function startServe(dialect: Dialect, config: Record<string, unknown> = {}): Promise<WebAppServer> {
  const smtp = await startSmtpServer();
  const dataDir = mkdtempSync(join(tmpdir(), 'tocsin-web-'));
  let db: TestDatabase | null = null;
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const configFile = join(dataDir, 'tocsin.json');
  writeFileSync(
    configFile,
    JSON.stringify({
      public_url: origin,
      default_plan: 'enterprise',
      plans: { enterprise: { interval_floor_seconds: 1 } },
      smtp: smtp.url,
      network: { allow_private_targets: true },
      ...config,
    }),
  );
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '/tmp',
    LOG_FORMAT: 'json',
    LOG_LEVEL: 'warn',
    TOCSIN_DATA_DIR: dataDir,
    TOCSIN_CONFIG: configFile,
    PORT: String(port),
    HOST: '127.0.0.1',
  };
  if (dialect === 'postgres') {
    db = await createTestDatabase('postgres', { migrate: false });
    env.DATABASE_URL = db.url;
  }
  const child: ChildProcess = spawn(process.execPath, [BIN, 'serve'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise((done) => child.once('exit', done));
  // Bounds a hang: at load 22 on the 2-core machine the process took more than a minute to answer.
  const deadline = Date.now() + 120_000;
  let ready = false;
  while (!ready && Date.now() < deadline && child.exitCode === null) {
    try {
      ready = (await fetch(`${origin}/readyz`)).ok;
    } catch {
      // not listening yet
    }
    if (!ready) await new Promise((r) => setTimeout(r, 100));
  }
  if (child.exitCode !== null) throw new Error(`tocsin serve exited: ${out}`);
  if (!ready) {
    child.kill('SIGKILL');
    await exited;
    await smtp.close();
    await db?.drop();
    throw new Error(`tocsin serve not ready after 120 s: ${out}`);
  }
  return {
    origin,
    smtp,
    env,
    output: () => out,
    async stop() {
      child.kill('SIGTERM');
      await exited;
      await smtp.close();
      await db?.drop();
    },
  };
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: testServices.chromiumPath!,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
    ],
  });
}

/**
 * One Chromium for a whole test file, launched at its first use: a file's suites (one per database) open their own
 * browser contexts in it, as separate users' windows are, instead of a Chromium each (about a second of CPU per
 * launch). Call `close()` in the file's top-level afterAll.
 */
export function chromiumOnce(): { get(): Promise<Browser>; close(): Promise<void> } {
  let launched: Promise<Browser> | null = null;
  return {
    get: () => (launched ??= launchChromium()),
    async close() {
      // A launch that failed has failed the suites that waited for it; there is nothing to close then.
      const browser = await launched?.catch(() => null);
      await browser?.close();
    },
  };
}

export const OWNER = {
  organization: 'Acme',
  name: 'Olive Owner',
  email: 'olive@example.com',
  password: 'correct horse battery',
};

/** The first-run page: creates the organization and its owner and lands on the overview. */
export async function firstRun(page: Page, origin: string): Promise<void> {
  await page.goto(`${origin}/`);
  await page.waitForURL(`${origin}/setup`);
  await page.getByLabel('Organization name').fill(OWNER.organization);
  await page.getByLabel('Your name').fill(OWNER.name);
  await page.getByLabel('Email').fill(OWNER.email);
  await page.getByLabel('Password').fill(OWNER.password);
  await page.getByRole('button', { name: 'Create organization' }).click();
  await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
}

export async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** API calls with the page's session (its cookie and CSRF token), for arranging data around a flow. */
export async function sessionApi(
  page: Page,
  origin: string,
): Promise<(method: string, path: string, body?: unknown) => Promise<{ status: number; body: unknown }>> {
  const session = await page.request.get(`${origin}/api/v1/auth/session`);
  const { csrf_token } = (await session.json()) as { csrf_token: string };
  return async (method, path, body) => {
    const res = await page.request.fetch(`${origin}${path}`, {
      method,
      headers: { 'x-csrf-token': csrf_token, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { data: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    return { status: res.status(), body: text ? (JSON.parse(text) as unknown) : null };
  };
}

/** Every page of the app with what a test needs to reach it (ids filled in by the caller's data). */
export function appPages(ids: {
  monitor: string;
  incident: string;
  statusPage: string;
  destination: string;
  key: string;
}): [string, string][] {
  return [
    ['overview', '/'],
    ['monitors', '/monitors'],
    ['monitor-new', '/monitors/new'],
    ['monitor-detail', `/monitors/${ids.monitor}?period=24h`],
    ['monitor-edit', `/monitors/${ids.monitor}/edit`],
    ['incidents', '/incidents'],
    ['incident-detail', `/incidents/${ids.incident}`],
    ['status-pages', '/status-pages'],
    ['status-page-edit', `/status-pages/${ids.statusPage}`],
    ['destinations', '/destinations'],
    ['destination-new', '/destinations/new'],
    ['destination-edit', `/destinations/${ids.destination}`],
    ['members', '/members'],
    ['api-keys', '/api-keys'],
    ['api-key-detail', `/api-keys/${ids.key}`],
    ['settings', '/settings'],
    ['profile', '/profile'],
  ];
}

/** Monitors (one failing), an incident, a status page, a destination and a key, made through the session. */
export async function seedThroughSession(
  page: Page,
  origin: string,
  urls: { up: string; down: string; hook: string },
): Promise<{ monitor: string; downMonitor: string; statusPage: string; destination: string; key: string }> {
  const call = await sessionApi(page, origin);
  const made = async (path: string, body: unknown) => {
    const res = await call('POST', path, body);
    if (res.status !== 201) throw new Error(`POST ${path} → ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as { id: string };
  };
  const monitor = await made('/api/v1/monitors', { name: 'Website', target: urls.up, tags: ['web', 'public'] });
  const downMonitor = await made('/api/v1/monitors', { name: 'Payments API', target: urls.down, tags: ['api'] });
  await made('/api/v1/monitors', { name: 'Docs', target: urls.up, environment: 'staging' });
  const statusPage = await made('/api/v1/status-pages', {
    slug: 'acme',
    title: 'Acme status',
    monitor_ids: [monitor.id, downMonitor.id],
  });
  const destination = await made('/api/v1/auth/organization/webhooks', {
    type: 'generic_webhook',
    name: 'Ops webhook',
    config: { url: urls.hook },
  });
  const key = await made('/api/v1/api-keys', { name: 'CI', scopes: ['monitors:read'] });
  return {
    monitor: monitor.id,
    downMonitor: downMonitor.id,
    statusPage: statusPage.id,
    destination: destination.id,
    key: key.id,
  };
}

/** In the page: true once no "Loading…" is left (a function, not a string: the app's CSP forbids eval). */
export function noLoadingText(): boolean {
  const page = globalThis as unknown as { document: { body: { innerText: string } } };
  return !page.document.body.innerText.includes('Loading');
}

/**
 * Waits until a page has drawn its data: no "Loading…" left and the network quiet for a moment. (Not
 * Playwright's networkidle: the page keeps its event stream open.)
 */
export async function settle(page: Page): Promise<void> {
  await page.locator('h1').first().waitFor();
  // Bounds a hang, not slowness: a report page on the loaded 2-core machine drew after more than 15 s (load 20).
  await page.waitForFunction(noLoadingText, undefined, { timeout: 45_000 });
  await page.waitForTimeout(400);
}

/**
 * An axe scan builder for the page as drawn, in legacy mode: axe.run in the page itself. The default mode runs
 * axe.runPartial in each frame and axe.finishRun in a blank page it opens for every scan (a new tab, and axe's
 * source evaluated a second time), which took seconds per scan on the loaded 2-core machine. Legacy mode gives up
 * only cross-origin frames, and the app has none (its one frame, the status page preview, is same-origin).
 */
export function axe(page: Page): AxeBuilder {
  // resultTypes: the tests read violations only; passes, incomplete and inapplicable are then summed up with one
  // node each instead of every node (axe's documented option for large pages). Violations keep all their nodes.
  return new AxeBuilder({ page }).setLegacyMode().options({ resultTypes: ['violations'] });
}
