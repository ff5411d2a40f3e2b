/**
 * `tocsin backup --to FILE`: an online copy of the SQLite database taken while a real `tocsin serve` process is
 * checking monitors and writing executions; the copy passes PRAGMA integrity_check, every table reads, and a Tocsin
 * started on the restored copy serves the monitors. An existing file is refused without --force; on PostgreSQL
 * the command prints pg_dump guidance and exits 2.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.ts';
import { createTocsin } from '../../src/main.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { bearer, createTestApp, TEST_PLANS, type TestApp } from '../support/app.ts';
import { startHttpTarget, type RunningTarget } from '../support/targets/index.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const BIN = join(ROOT, 'bin/tocsin.js');
const MONITORS = 40;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The real command line (asynchronously: this process serves the monitors' target meanwhile). */
function tocsin(args: string[], env: Record<string, string>): Promise<Run> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', LOG_FORMAT: 'json', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
    // 'close': after the pipes are drained ('exit' can come before the last output).
    child.once('close', (code) => done({ code, stdout, stderr }));
  });
}

function executionsIn(path: string): number {
  const db = new BetterSqlite3(path, { readonly: true, fileMustExist: true });
  try {
    return db.prepare('select count(*) from execution').pluck().get() as number;
  } finally {
    db.close();
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('tocsin backup (SQLite, while tocsin serve checks monitors)', () => {
  let t: TestApp;
  let target: RunningTarget;
  let serve: ChildProcess;
  let serveExit: Promise<number | null>;
  let serveOutput = '';
  let env: Record<string, string>;
  let apiKey: string;
  const work = mkdtempSync(join(tmpdir(), 'tocsin-backup-'));

  beforeAll(async () => {
    target = await startHttpTarget((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('ok');
    });
    // The database and its monitors, made through the API; then the real service takes over the same file.
    t = await createTestApp();
    const org = await t.createOrg();
    apiKey = org.apiKey;
    for (let i = 0; i < MONITORS; i++) {
      const res = await t.tocsin.app.inject({
        method: 'POST',
        url: '/api/v1/monitors',
        headers: bearer(apiKey),
        payload: { name: `m${i}`, target: `${target.url}/m${i}`, interval_seconds: 1 },
      });
      expect(res.statusCode).toBe(201);
    }
    await t.tocsin.close();
    const configPath = join(work, 'tocsin.json');
    writeFileSync(configPath, JSON.stringify({ plans: TEST_PLANS }));
    env = {
      TOCSIN_DATA_DIR: t.config.dataDir,
      TOCSIN_CONFIG: configPath,
      TOCSIN_MASTER_KEY: Buffer.alloc(32, 7).toString('base64'),
      LOG_LEVEL: 'warn',
      PORT: '0',
      HOST: '127.0.0.1',
    };
    serve = spawn(process.execPath, [BIN, 'serve'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', LOG_FORMAT: 'json', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    serve.stdout!.on('data', (d: Buffer) => (serveOutput += d.toString('utf8')));
    serve.stderr!.on('data', (d: Buffer) => (serveOutput += d.toString('utf8')));
    serveExit = new Promise((done) => serve.once('exit', (code) => done(code)));
  }, 60_000);

  afterAll(async () => {
    if (serve && serve.exitCode === null) {
      serve.kill('SIGTERM');
      await serveExit;
    }
    await target.close();
    await t.db.drop();
    rmSync(work, { recursive: true, force: true });
  });

  it('copies consistently while checks are written; the copy is sound, every table reads, and it restores', async () => {
    const live = join(t.config.dataDir, 'tocsin.db');
    // Checks are being written: wait for a few rounds of the 40 one-second monitors.
    const deadline = Date.now() + 30_000;
    while (executionsIn(live) < 3 * MONITORS) {
      if (serve.exitCode !== null) throw new Error(`serve exited: ${serveOutput}`);
      if (Date.now() > deadline) throw new Error(`no checks written in 30 s: ${serveOutput}`);
      await sleep(200);
    }

    const liveDb = new BetterSqlite3(live, { readonly: true, fileMustExist: true });
    const applied = liveDb.prepare('select name from tocsin_migration order by name').pluck().all() as string[];
    liveDb.close();
    expect(applied.length).toBeGreaterThan(0);
    const copies = [join(work, 'first.db'), join(work, 'second.db')];
    for (const to of copies) {
      const run = await tocsin(['backup', '--to', to], env);
      expect(run.code, run.stderr).toBe(0);
      expect(JSON.parse(run.stdout)).toMatchObject({ backup: to, bytes: statSync(to).size });
      await sleep(1_500); // more checks written between the two copies
    }
    expect(serve.exitCode).toBeNull(); // the service kept running throughout

    const counts: number[] = [];
    for (const copy of copies) {
      expect(statSync(copy).mode & 0o777).toBe(0o600);
      expect(existsSync(`${copy}-wal`)).toBe(false);
      const db = new BetterSqlite3(copy, { readonly: true, fileMustExist: true });
      try {
        expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
        expect(db.pragma('foreign_key_check')).toEqual([]);
        expect(db.pragma('journal_mode', { simple: true })).toBe('delete');
        const tables = db
          .prepare("select name from sqlite_master where type = 'table' and name not like 'sqlite_%'")
          .pluck()
          .all() as string[];
        expect(tables).toEqual(expect.arrayContaining(['monitor', 'execution', 'organization', 'tocsin_migration']));
        for (const table of tables) {
          const rows = db.prepare(`select * from "${table}"`).all();
          expect(Array.isArray(rows)).toBe(true);
        }
        expect(db.prepare('select count(*) from monitor').pluck().get()).toBe(MONITORS);
        expect(db.prepare('select name from tocsin_migration order by name').pluck().all()).toEqual(applied);
        counts.push(db.prepare('select count(*) from execution').pluck().get() as number);
      } finally {
        db.close();
      }
    }
    expect(counts[0]).toBeGreaterThanOrEqual(3 * MONITORS);
    expect(counts[1]).toBeGreaterThan(counts[0]!);

    // Restore: a Tocsin on a data dir holding only the copy serves the same monitors.
    const restored = mkdtempSync(join(work, 'restored-'));
    copyFileSync(copies[1]!, join(restored, 'tocsin.db'));
    const config = loadConfig({
      env: { TOCSIN_DATA_DIR: restored, NODE_ENV: 'test', TOCSIN_MASTER_KEY: env.TOCSIN_MASTER_KEY },
      isTty: false,
    });
    const again = await createTocsin(config, { logger: createLogger({ level: 'silent', pretty: false }) });
    try {
      const list = await again.app.inject({
        method: 'GET',
        url: '/api/v1/monitors?limit=100',
        headers: bearer(apiKey),
      });
      expect(list.statusCode).toBe(200);
      expect((list.json() as { data: unknown[] }).data).toHaveLength(MONITORS);
    } finally {
      await again.close();
    }
  }, 90_000);

  it('refuses an existing file unless --force (leaving it untouched) and a missing directory', async () => {
    const to = join(work, 'existing.db');
    writeFileSync(to, 'not a database');
    const refused = await tocsin(['backup', '--to', to], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('exists; pass --force');
    expect(readFileSync(to, 'utf8')).toBe('not a database');
    const nowhere = await tocsin(['backup', '--to', join(work, 'missing-dir', 'copy.db')], env);
    expect(nowhere.code).toBe(1);
    expect(nowhere.stderr).toContain('does not exist');
    const forced = await tocsin(['backup', '--to', to, '--force'], env);
    expect(forced.code, forced.stderr).toBe(0);
    const db = new BetterSqlite3(to, { readonly: true, fileMustExist: true });
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    } finally {
      db.close();
    }
  }, 30_000);

  it('on PostgreSQL prints pg_dump guidance and exits 2', async () => {
    const to = join(work, 'pg.db');
    const run = await tocsin(['backup', '--to', to], {
      ...env,
      DATABASE_URL: 'postgres://tocsin@127.0.0.1:5432/tocsin',
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('pg_dump');
    expect(run.stdout).toBe('');
    expect(existsSync(to)).toBe(false);
  }, 30_000);
});
