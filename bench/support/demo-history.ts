/**
 * A benchmark history made by `tocsin demo`'s generator (through the check engine's write paths), cached between runs:
 * a data directory under /tmp for SQLite, plus a database of its own for PostgreSQL. The report and status-page
 * benches share it; each names its place and says what else it creates once the history is written.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { generateDemo, type DemoOptions, type DemoResult } from '../../src/cli/demo/demo.generator.ts';
import { loadConfig } from '../../src/config/index.ts';
import { createTocsin, type Tocsin } from '../../src/main.ts';
import { DayPrefixesCompactor } from '../../src/modules/checks/index.ts';
import { ManualClock } from '../../src/platform/clock.ts';
import type { Logger } from '../../src/platform/logger.ts';

export interface DemoHistoryPlace {
  dataDir: string;
  /** Where the bench keeps what it needs of the seeded history (ids, keys, the range). */
  metaPath: string;
  /** The environment a Tocsin on this history is configured from (data directory, config file, DATABASE_URL). */
  env: Record<string, string>;
  /** The history's own PostgreSQL database; null on SQLite. */
  pgUrl: string | null;
}

/** The server the bench databases are made on: DATABASE_URL, TOCSIN_TEST_POSTGRES_URL or the local default. */
function postgresBase(): string {
  return (
    process.env.DATABASE_URL ?? process.env.TOCSIN_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'
  );
}

/** `dataDir` holds the SQLite file and the config; on PostgreSQL the history is in database `databaseName`. */
export function demoHistoryPlace(
  dialect: 'sqlite' | 'postgres',
  dataDir: string,
  databaseName: string,
): DemoHistoryPlace {
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    TOCSIN_DATA_DIR: dataDir,
    TOCSIN_CONFIG: join(dataDir, 'tocsin.json'),
    NODE_ENV: 'production',
  };
  delete env.DATABASE_URL;
  let pgUrl: string | null = null;
  if (dialect === 'postgres') {
    const u = new URL(postgresBase());
    u.pathname = `/${databaseName}`;
    pgUrl = u.toString();
    env.DATABASE_URL = pgUrl;
  }
  return { dataDir, metaPath: join(dataDir, 'meta.json'), env, pgUrl };
}

async function pgAdmin(sql: string): Promise<void> {
  const admin = new pg.Client({ connectionString: postgresBase() });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

/**
 * Writes the history afresh (the data directory and, on PostgreSQL, the database are made anew; `writeConfig` writes
 * the config file into the new directory), gives its closed days their prefix sums, then lets `after` add what the bench needs on the same instance, and
 * returns what `after` returned with the seconds it all took.
 */
export async function seedDemoHistory<T>(
  place: DemoHistoryPlace,
  writeConfig: () => void,
  options: Omit<DemoOptions, 'now' | 'seed'>,
  logger: Logger,
  after: (tocsin: Tocsin, demo: DemoResult) => Promise<T>,
): Promise<{ result: T; seedSeconds: number }> {
  rmSync(place.dataDir, { recursive: true, force: true });
  mkdirSync(place.dataDir, { recursive: true });
  writeConfig();
  if (place.pgUrl) {
    const name = new URL(place.pgUrl).pathname.slice(1);
    await pgAdmin(`DROP DATABASE IF EXISTS ${name}`);
    await pgAdmin(`CREATE DATABASE ${name}`);
  }
  const started = Date.now();
  const clock = new ManualClock(started);
  const tocsin = await createTocsin(loadConfig({ env: place.env, isTty: false }), { logger, clock, background: false });
  try {
    const demo = await generateDemo(
      { services: tocsin.services, database: tocsin.database, clock, logger },
      { ...options, now: started, seed: 1 },
    );
    // What `tocsin serve`'s rollup-day-prefixes role does with the days the history closed.
    await new DayPrefixesCompactor({ database: tocsin.database, clock }).compactOnce();
    const result = await after(tocsin, demo);
    return { result, seedSeconds: (Date.now() - started) / 1000 };
  } finally {
    await tocsin.close();
  }
}

/** Writes the bench's meta file (what later runs read instead of seeding again). */
export function saveMeta(place: DemoHistoryPlace, meta: unknown): void {
  writeFileSync(place.metaPath, JSON.stringify(meta));
}
