import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import type { Logger } from '../logger.ts';
import { systemTimers, type TimerHandle, type Timers } from '../timers.ts';
import type { Database } from './database.ts';

/**
 * "Something changed that a waiting loop should look at" (the schedule, the outbox, the deliveries), told after the
 * change commits: to this process's listeners at once and, on PostgreSQL, to every other process through
 * LISTEN/NOTIFY on one dedicated connection (SQLite: another process's commit is noticed within a second through
 * `PRAGMA data_version`, and every listener runs). Background loops then wait on these signals and on timers to their next
 * due time instead of polling the database every second; they keep a slow safety poll (`safetyPollMs`) for what a
 * signal cannot cover (a notification lost while the listening connection was down, a process killed between its
 * commit and its NOTIFY).
 */
export interface ChangeSignals {
  /**
   * The longest a loop should wait between two reads of the database when nothing signals a change: long while
   * other processes' changes are heard of (PostgreSQL: LISTEN connected; SQLite: `data_version` watched), short
   * otherwise.
   */
  readonly safetyPollMs: number;
  /** After `tx` commits (at once outside a transaction): this process's listeners of `topic`, then other processes. */
  signal(tx: Database, topic: string): void;
  /** `listener` runs after every committed change of `topic`, this process's or (PostgreSQL) another's. */
  on(topic: string, listener: () => void): void;
  /** Starts hearing of other processes' changes (PostgreSQL LISTEN, SQLite `data_version`). */
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** While other processes' changes would go unnoticed (not started, or PostgreSQL's LISTEN connection down). */
export const SHORT_SAFETY_POLL_MS = 1_000;
/** With other processes' changes signalled, only a lost signal is left to the poll, so a slow one bounds its cost. */
export const LONG_SAFETY_POLL_MS = 30_000;
/** How often SQLite's `data_version` is read: how late another process's commit is seen. */
const DATA_VERSION_POLL_MS = 1_000;
const CHANNEL = 'tocsin_change';

class Listeners {
  private readonly byTopic = new Map<string, Array<() => void>>();
  on(topic: string, listener: () => void): void {
    const list = this.byTopic.get(topic) ?? [];
    list.push(listener);
    this.byTopic.set(topic, list);
  }
  emit(topic: string): void {
    for (const listener of this.byTopic.get(topic) ?? []) listener();
  }
  emitAll(): void {
    for (const topic of this.byTopic.keys()) this.emit(topic);
  }
}

/**
 * SQLite: the signal is this process's after-commit callback; another process's commit (an admin command on the
 * same file) is seen through `PRAGMA data_version`, which changes only when another connection has committed: one
 * read of a counter a second (no table touched) instead of every idle loop reading its tables every second.
 */
class SqliteChangeSignals implements ChangeSignals {
  private readonly database: Database;
  private readonly listeners = new Listeners();
  private readonly timers: Timers;
  private timer: TimerHandle | null = null;
  private version: number | null = null;
  constructor(database: Database, timers: Timers) {
    this.database = database;
    this.timers = timers;
  }
  get safetyPollMs(): number {
    return this.timer ? LONG_SAFETY_POLL_MS : SHORT_SAFETY_POLL_MS;
  }
  signal(tx: Database, topic: string): void {
    tx.afterCommit(() => this.listeners.emit(topic));
  }
  on(topic: string, listener: () => void): void {
    this.listeners.on(topic, listener);
  }
  async start(): Promise<void> {
    if (this.timer) return;
    this.version = await this.dataVersion();
    this.watchLater();
  }
  /** Every DATA_VERSION_POLL_MS after the last look ended (looks never overlap) until stop(). */
  private watchLater(): void {
    const handle = this.timers.after(DATA_VERSION_POLL_MS, () => {
      void this.watch().finally(() => {
        // Stopped meanwhile (and maybe started again, with a timer of its own): this chain ends.
        if (this.timer === handle) this.watchLater();
      });
    });
    this.timer = handle;
  }
  private async watch(): Promise<void> {
    try {
      const version = await this.dataVersion();
      if (version !== this.version) {
        this.version = version;
        this.listeners.emitAll();
      }
    } catch {
      // Closing, or the database unreadable: the loops' own reads report it.
    }
  }
  private async dataVersion(): Promise<number> {
    const result = await sql<{ data_version: number }>`pragma data_version`.execute(this.database.tables());
    return Number(result.rows[0]?.data_version ?? 0);
  }
  async stop(): Promise<void> {
    if (this.timer) this.timers.cancel(this.timer);
    this.timer = null;
  }
}

/**
 * PostgreSQL: `NOTIFY tocsin_change, '<topic> <origin>'` after the commit (one statement per topic per event-loop
 * turn, however many changes it had), heard on a dedicated `LISTEN` connection; a process ignores its own
 * notifications (its listeners already ran after the commit). The listening connection reconnects with a backoff;
 * while it is down the safety poll is short, and once back every listener runs once (what was missed meanwhile).
 */
class PostgresChangeSignals implements ChangeSignals {
  private readonly database: Database;
  private readonly url: string;
  private readonly logger: Logger;
  private readonly origin = randomBytes(6).toString('hex');
  private readonly listeners = new Listeners();
  private readonly toNotify = new Set<string>();
  private client: pg.Client | null = null;
  private listening = false;
  private stopped = true;
  private retryMs = 1_000;
  private retryTimer: TimerHandle | null = null;
  private readonly timers: Timers;

  constructor(database: Database, url: string, logger: Logger, timers: Timers) {
    this.database = database;
    this.url = url;
    this.logger = logger;
    this.timers = timers;
  }

  get safetyPollMs(): number {
    return this.listening ? LONG_SAFETY_POLL_MS : SHORT_SAFETY_POLL_MS;
  }

  signal(tx: Database, topic: string): void {
    tx.afterCommit(() => {
      this.listeners.emit(topic);
      if (this.toNotify.size === 0) setImmediate(() => void this.notify());
      this.toNotify.add(topic);
    });
  }

  on(topic: string, listener: () => void): void {
    this.listeners.on(topic, listener);
  }

  private async notify(): Promise<void> {
    const topics = [...this.toNotify];
    this.toNotify.clear();
    try {
      for (const topic of topics)
        await sql`select pg_notify(${CHANNEL}, ${`${topic} ${this.origin}`})`.execute(this.database.tables());
    } catch (err) {
      // The other processes see the change at their safety poll instead.
      this.logger.debug({ err }, 'change signal: NOTIFY failed');
    }
  }

  async start(): Promise<void> {
    this.stopped = false;
    await this.connect();
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const client = new pg.Client({ connectionString: this.url });
    client.on('notification', (message) => {
      const [topic, origin] = (message.payload ?? '').split(' ');
      if (topic && origin !== this.origin) this.listeners.emit(topic);
    });
    client.on('error', () => this.lost(client));
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
    } catch (err) {
      this.logger.warn({ reason: err instanceof Error ? err.message : String(err) }, 'change signal: LISTEN failed');
      this.lost(client);
      return;
    }
    if (this.stopped) {
      await client.end().catch(() => {});
      return;
    }
    this.client = client;
    this.listening = true;
    this.retryMs = 1_000;
    // Whatever changed while nobody listened: every loop looks once.
    this.listeners.emitAll();
  }

  private lost(client: pg.Client): void {
    client.removeAllListeners('end');
    client.removeAllListeners('error');
    client.on('error', () => {});
    client.end().catch(() => {});
    if (this.client !== null && this.client !== client) return; // an older connection's late error
    this.client = null;
    this.listening = false;
    if (this.stopped || this.retryTimer) return;
    this.retryTimer = this.timers.after(this.retryMs, () => {
      this.retryTimer = null;
      void this.connect();
    });
    this.retryMs = Math.min(this.retryMs * 2, LONG_SAFETY_POLL_MS);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.listening = false;
    if (this.retryTimer) this.timers.cancel(this.retryTimer);
    this.retryTimer = null;
    const client = this.client;
    this.client = null;
    if (client) {
      client.removeAllListeners('end');
      client.removeAllListeners('error');
      client.on('error', () => {});
      await client.end().catch(() => {});
    }
  }
}

/**
 * `url`: the PostgreSQL URL `database` was opened with (null for SQLite). `timers`: the SQLite watch's and the
 * PostgreSQL reconnect's (tests fire them without waiting).
 */
export function createChangeSignals(
  database: Database,
  url: string | null,
  logger: Logger,
  timers: Timers = systemTimers,
): ChangeSignals {
  return database.dialect === 'postgres' && url
    ? new PostgresChangeSignals(database, url, logger, timers)
    : new SqliteChangeSignals(database, timers);
}
