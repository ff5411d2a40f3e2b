import type { Logger } from '../../platform/logger.ts';
import { systemTimers, type TimerHandle, type Timers } from '../../platform/timers.ts';
import { translate } from './live.translate.ts';
import type { LiveEvent, LivePosition, LiveSources, LiveSubscriber } from './live.types.ts';

export interface LiveHubOptions {
  sources: LiveSources;
  logger: Logger;
  /** How often the shared poller reads when nothing wakes it (events of other processes, executions). */
  pollMs?: number;
  /** Rows read per source per round. */
  batch?: number;
  heartbeatMs?: number;
  /** The most events one resuming client is sent from before it connected. */
  catchUpLimit?: number;
  /** The poll's and the heartbeat's timers (tests fire them without waiting); the system's by default. */
  timers?: Timers;
}

/** What a resuming client missed: the events, and whether that was all of them (else it must reload). */
export interface CatchUp {
  events: LiveEvent[];
  complete: boolean;
}

/**
 * The live feed of one process: a single poller (not one per client) reads the outbox and the stored executions
 * while at least one client listens, woken at once after a local commit (`nudge`, wired to the events module's
 * after-commit signal) and otherwise every `pollMs`; every client receives every round and keeps what it may see.
 * A shared timer sends heartbeats.
 */
export class LiveHub {
  private readonly sources: LiveSources;
  private readonly logger: Logger;
  private readonly pollMs: number;
  private readonly batch: number;
  private readonly heartbeatMs: number;
  private readonly catchUpLimit: number;
  private readonly subscribers = new Set<LiveSubscriber>();
  private position: LivePosition | null = null;
  private starting: Promise<LivePosition> | null = null;
  private readonly timers: Timers;
  private timer: TimerHandle | null = null;
  private heartbeatTimer: TimerHandle | null = null;
  private polling = false;
  private again = false;
  private closed = false;

  constructor(options: LiveHubOptions) {
    this.sources = options.sources;
    this.logger = options.logger;
    this.pollMs = options.pollMs ?? 1000;
    this.batch = options.batch ?? 500;
    this.heartbeatMs = options.heartbeatMs ?? 15_000;
    this.catchUpLimit = options.catchUpLimit ?? 1000;
    this.timers = options.timers ?? systemTimers;
  }

  get clientCount(): number {
    return this.subscribers.size;
  }

  /**
   * Adds a client; it receives every event after the returned position (the feed's head when nothing listened
   * before). `unsubscribe` when the connection ends.
   */
  async subscribe(subscriber: LiveSubscriber): Promise<{ position: LivePosition; unsubscribe: () => void }> {
    if (this.closed) throw new Error('the live feed is closed');
    if (!this.position) {
      this.starting ??= this.heads().finally(() => {
        this.starting = null;
      });
      const head = await this.starting;
      this.position ??= head;
    }
    this.subscribers.add(subscriber);
    if (!this.heartbeatTimer) this.beatLater();
    if (!this.timer && !this.polling) this.schedule(this.pollMs);
    return { position: { ...this.position! }, unsubscribe: () => this.remove(subscriber) };
  }

  /** Read now (a transaction with events committed in this process). */
  nudge(): void {
    if (this.subscribers.size === 0 || this.closed) return;
    if (this.polling) {
      this.again = true;
      return;
    }
    this.schedule(0);
  }

  /** Sends every client a heartbeat comment (the shared timer calls it every `heartbeatMs`). */
  beat(): void {
    for (const s of this.subscribers) s.heartbeat();
  }

  /** The events in (`from`, `to`], at most `catchUpLimit`, for a client that resumes with Last-Event-ID. */
  async read(from: LivePosition, to: LivePosition): Promise<CatchUp> {
    const limit = this.catchUpLimit;
    const outbox = (await this.sources.outboxAfter(from.seq, limit)).filter((e) => Number(e.seq) <= to.seq);
    const executions = (await this.sources.executionsAfter(from.executionKey, limit)).filter(
      (x) => x.key <= to.executionKey,
    );
    const lastSeq = outbox.length > 0 ? Number(outbox.at(-1)!.seq) : from.seq;
    const lastKey = executions.length > 0 ? executions.at(-1)!.key : from.executionKey;
    const complete =
      (outbox.length < limit || lastSeq >= to.seq) && (executions.length < limit || lastKey >= to.executionKey);
    const { events } = await translate(this.sources, from, outbox, executions);
    return { events, complete };
  }

  /** Ends every client and stops the timers (the HTTP server is closing). */
  close(): void {
    this.closed = true;
    this.stopTimers();
    for (const s of [...this.subscribers]) s.close();
    this.subscribers.clear();
  }

  /** The stored head: the newest outbox event and execution (a resuming client is replayed up to it). */
  head(): Promise<LivePosition> {
    return this.heads();
  }

  private async heads(): Promise<LivePosition> {
    const [seq, executionKey] = await Promise.all([this.sources.latestSeq(), this.sources.latestExecutionKey()]);
    return { seq, executionKey };
  }

  private remove(subscriber: LiveSubscriber): void {
    this.subscribers.delete(subscriber);
    if (this.subscribers.size > 0) return;
    // Nobody listens: stop reading, and start again from the head for the next client (not from here).
    this.stopTimers();
    this.position = null;
  }

  private stopTimers(): void {
    if (this.timer) this.timers.cancel(this.timer);
    if (this.heartbeatTimer) this.timers.cancel(this.heartbeatTimer);
    this.timer = null;
    this.heartbeatTimer = null;
  }

  /** The shared heartbeat: every `heartbeatMs` while anyone listens. */
  private beatLater(): void {
    this.heartbeatTimer = this.timers.after(this.heartbeatMs, () => {
      this.heartbeatTimer = null;
      if (this.subscribers.size === 0 || this.closed) return;
      this.beat();
      this.beatLater();
    });
  }

  private schedule(ms: number): void {
    if (this.timer) this.timers.cancel(this.timer);
    this.timer = this.timers.after(ms, () => {
      this.timer = null;
      void this.round();
    });
  }

  private async round(): Promise<void> {
    if (this.polling || this.closed || !this.position) return;
    this.polling = true;
    let full = false;
    try {
      const start = this.position;
      const [outbox, executions] = await Promise.all([
        this.sources.outboxAfter(start.seq, this.batch),
        this.sources.executionsAfter(start.executionKey, this.batch),
      ]);
      full = outbox.length === this.batch || executions.length === this.batch;
      if (outbox.length > 0 || executions.length > 0) {
        const { events, end } = await translate(this.sources, start, outbox, executions);
        // The position may have been reset meanwhile (every client left): then this round is dropped.
        if (this.position === start) {
          this.position = end;
          if (events.length > 0) for (const s of this.subscribers) s.deliver(events);
        }
      }
    } catch (err) {
      this.logger.warn({ err: (err as Error).message }, 'live feed: a read failed; trying again');
    } finally {
      this.polling = false;
    }
    if (this.subscribers.size === 0 || this.closed) return;
    const soon = this.again || full;
    this.again = false;
    this.schedule(soon ? 0 : this.pollMs);
  }
}
