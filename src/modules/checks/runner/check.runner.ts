import { BackgroundLoop } from '../../../platform/background-loop.ts';
import type { Clock } from '../../../platform/clock.ts';
import type { Logger } from '../../../platform/logger.ts';
import { systemTimers, type TimerHandle, type Timers } from '../../../platform/timers.ts';
import type { Observation, ProbeRegistry } from '../probes/index.ts';
import { isSlow, staleAfterMs } from '../engine/check.engine.ts';
import type { CheckResult, ClaimedCheck, WorkSource } from '../engine/check.types.ts';
import { OutageLog } from './outage.log.ts';
import { OutcomeRuns, runThresholdsOf, type Outcome } from './outcome.runs.ts';

export interface CheckRunnerOptions {
  source: WorkSource;
  probes: Pick<ProbeRegistry, 'run'>;
  clock: Clock;
  logger: Logger;
  /** Checks in flight at most (claimed and not yet reported); claims never exceed the free slots. */
  concurrency: number;
  /** Results are sent in batches of this size, or after `flushMs`, whichever comes first. */
  batchSize?: number;
  flushMs?: number;
  /**
   * A result that may change its monitor's verdict (the first failures, the first successes after them: see
   * outcome.runs.ts) is sent within this many ms instead of `flushMs`: the batch wait would otherwise sit inside every
   * alert's latency. Short rather than 0 so urgent results finishing together (an outage seen by many monitors) go in
   * one batch.
   */
  urgentFlushMs?: number;
  /** The most (monitor, region)s whose current run of results is remembered (failing or recovering ones only). */
  maxTrackedRuns?: number;
  /** How long one claim may wait for work (long-poll); the in-process source polls instead. */
  claimWaitMs?: number;
  /** Pause after a claim that found less than it could take (in-process source): the shortest wait. */
  idleMs?: number;
  /**
   * The longest wait after a claim that found nothing, when the source can tell when its next check is due
   * (`nextDueAt`): the loop then sleeps until that time (at least `idleMs`, at most this) instead of polling, and
   * `nudge()` (a schedule change) ends the wait. Bounds how late a change nobody nudged about is seen; a function is
   * asked before every wait (the change signals make it long while other processes' changes are signalled).
   */
  maxIdleMs?: number | (() => number);
  /**
   * The loop claims checks due within this many ms and claims again `lookaheadMs − idleMs` later (default 0: claims
   * what is due, again after `idleMs`; runOnce always uses 0). The in-process runner of `tocsin serve` claims 1 s ahead:
   * at an even 50 checks/s that is about one claim (a transaction and its WAL commit) a second instead of ten.
   */
  lookaheadMs?: number;
  /**
   * Checks claimed ahead start on this grid (ms): at the first grid instant at or after their due time, one timer per
   * instant for all the checks starting then (default 1: each on its due time, a timer each). A timer and an event-loop
   * turn per check cost more than the claims they saved (docs/BENCHMARKS.md, issue 36 item 9); with a 100 ms grid a
   * check starts 0–100 ms after its slot, as it did when claims came every 100 ms.
   */
  startGridMs?: number;
  allowPrivateTargets: boolean;
  tlsCa?: string;
  /** Told of every finished check (benchmarks measure lateness here). */
  onResult?(check: ClaimedCheck, observation: Observation): void;
  /** Backoff after a failed claim (the source unreachable): first delay, doubled up to the maximum. */
  retryBaseMs?: number;
  retryMaxMs?: number;
  /** The claim loop's, the flush's and the start-on-due-time timers (tests pass a fake); the system's by default. */
  timers?: Timers;
}

/**
 * Runs claimed checks with bounded concurrency: claims only as many checks as it has free slots
 * (a slot is freed when the result has been handed to the source, so slow storage slows claiming:
 * backpressure), probes them, and reports results in batches.
 */
export class CheckRunner {
  private readonly o: Required<Omit<CheckRunnerOptions, 'tlsCa' | 'onResult' | 'timers'>> &
    Pick<CheckRunnerOptions, 'tlsCa' | 'onResult'>;
  private readonly timers: Timers;
  private readonly loop: BackgroundLoop;
  private readonly outage: OutageLog;
  private inFlight = 0;
  private buffer: CheckResult[] = [];
  private flushTimer: TimerHandle | null = null;
  /** When `flushTimer` fires (the runner's clock): an urgent result brings a later timer forward. */
  private flushDueAt = 0;
  private flushing: Promise<void> = Promise.resolve();
  /**
   * A send is chained behind the one in progress and has not yet taken its results: a flush meanwhile adds nothing
   * to the chain, the queued send takes what is buffered when its turn comes (so urgent flushes during a slow
   * transaction make one batch, not one transaction each).
   */
  private sendQueued = false;
  private readonly runs: OutcomeRuns;
  /** The loop waits because every slot is taken: a sent batch (slots freed) ends that wait. */
  private waitingForSlots = false;
  /**
   * The last claim found nothing and the loop waits for the next due check: the pass after the wait claims (the
   * check is due, or a wake said the schedule changed), unless the wait was cut at `maxIdleMs` (`dueCapped`) and
   * nobody woke the loop: then it reads the due time again instead.
   */
  private waitingForDue = false;
  private dueCapped = false;
  private readonly probesInFlight = new Set<Promise<void>>();
  /** Checks claimed ahead wait for these, one per start instant (`startOf`). */
  private readonly starts = new Map<number, Promise<void>>();
  /** Ends the claim in progress when the runner stops: a long-poll would otherwise hold the stop for up to 25 s. */
  private claimAbort: AbortController | null = null;

  constructor(options: CheckRunnerOptions) {
    const { timers, ...rest } = options;
    this.timers = timers ?? systemTimers;
    this.o = {
      batchSize: 500,
      flushMs: 250,
      urgentFlushMs: 5,
      maxTrackedRuns: 50_000,
      claimWaitMs: 0,
      idleMs: 100,
      maxIdleMs: 1_000,
      lookaheadMs: 0,
      startGridMs: 1,
      retryBaseMs: 1_000,
      retryMaxMs: 30_000,
      ...rest,
    };
    this.outage = new OutageLog({
      logger: this.o.logger,
      what: 'work source (control plane or database)',
      baseDelayMs: this.o.retryBaseMs,
      maxDelayMs: this.o.retryMaxMs,
      now: () => this.o.clock.now(),
    });
    this.runs = new OutcomeRuns({ now: () => this.o.clock.now(), maxEntries: this.o.maxTrackedRuns });
    this.loop = new BackgroundLoop({
      name: 'check-runner',
      everyMs: this.o.idleMs,
      pass: ({ woken }) => this.pass(woken),
      // The pass reports a failed claim itself (the outage log, with its backoff); anything else is logged here.
      failed: (err) => void this.o.logger.error({ err }, 'check runner round failed'),
      timers: this.timers,
    });
  }

  get pending(): number {
    return this.inFlight;
  }

  start(): void {
    void this.loop.start();
  }

  /** Stops claiming, lets running checks finish and sends their results. */
  async stop(): Promise<void> {
    const stopping = this.loop.stop();
    this.claimAbort?.abort();
    await stopping;
    await this.drain();
  }

  /** Resolves once the claim loop waits (its round has ended) or is stopped: tests with fake timers await it. */
  whenWaiting(): Promise<void> {
    return this.loop.whenWaiting();
  }

  /** One claim round without the loop: claim what is due, run it, send every result. For tests (ManualClock). */
  async runOnce(): Promise<number> {
    const free = this.o.concurrency - this.inFlight;
    const checks = free > 0 ? await this.o.source.claim(free, 0) : [];
    for (const c of checks) this.launch(c);
    await this.drain();
    return checks.length;
  }

  /** Waits for running checks and sends buffered results. */
  async drain(): Promise<void> {
    while (this.probesInFlight.size > 0) await Promise.all([...this.probesInFlight]);
    // A send may queue the rest of an oversized buffer behind it: wait until nothing is buffered or queued.
    do await this.flush();
    while (this.buffer.length > 0 || this.sendQueued);
  }

  /** One round of the claim loop; answers how long the loop waits before the next (a wake ends the wait sooner). */
  private async pass(woken: boolean): Promise<number> {
    this.waitingForSlots = false;
    if (this.waitingForDue) {
      if (this.dueCapped && !woken) return this.untilDue();
      this.waitingForDue = false;
    }
    const free = this.o.concurrency - this.inFlight;
    if (free <= 0) {
      this.waitingForSlots = true;
      return this.o.idleMs;
    }
    let checks: ClaimedCheck[];
    this.claimAbort = new AbortController();
    try {
      checks = await this.o.source.claim(free, this.o.claimWaitMs, this.o.lookaheadMs, this.claimAbort.signal);
    } catch (err) {
      if (this.loop.stopping) return 0; // stopped: the claim was ended on purpose, not an outage
      return this.outage.failed(err);
    } finally {
      this.claimAbort = null;
    }
    this.outage.succeeded();
    for (const c of checks) this.launch(c);
    if (this.o.claimWaitMs !== 0) return 0; // the source long-polls
    if (checks.length === 0) return this.o.source.nextDueAt ? this.untilDue() : this.o.idleMs;
    // Claimed up to `lookaheadMs` ahead: the next claim one idle wait before that horizon.
    return checks.length < free ? Math.max(this.o.idleMs, this.o.lookaheadMs - this.o.idleMs) : 0;
  }

  /** Schedule changes in this process (a monitor saved, a heartbeat making a check due): claim again now. */
  nudge(): void {
    this.loop.wake();
  }

  /**
   * After a claim that found nothing: the wait until the next check is due (at least `idleMs`, so a busy schedule is
   * claimed in batches as before), cut at `maxIdleMs` while nothing is due (the next pass then reads the due time
   * again, one small query, no claim); a nudge ends it.
   */
  private async untilDue(): Promise<number> {
    let until: number;
    try {
      const next = await this.o.source.nextDueAt!();
      until = next === null ? Infinity : next - this.o.lookaheadMs - this.o.clock.now();
    } catch {
      until = 0; // the claim reports the outage
    }
    const maxIdleMs = typeof this.o.maxIdleMs === 'function' ? this.o.maxIdleMs() : this.o.maxIdleMs;
    this.waitingForDue = true;
    this.dueCapped = until > maxIdleMs;
    return Math.max(this.o.idleMs, this.dueCapped ? maxIdleMs : until);
  }

  /**
   * The start of a check claimed ahead: the first instant of the `startGridMs` grid at or after its due time, one
   * timer per grid instant whatever the number of checks starting then.
   */
  private startOf(dueAt: number): Promise<void> {
    const early = dueAt - this.o.clock.now();
    if (early <= 0) return Promise.resolve();
    const grid = this.o.startGridMs;
    const at = grid > 1 ? Math.ceil(dueAt / grid) * grid : dueAt;
    let start = this.starts.get(at);
    if (!start) {
      start = new Promise<void>((resolve) => {
        // A timer may fire a little before the clock reaches its instant (the event loop's cached time): wait the
        // rest then, so that no check starts before its slot.
        const fire = (): void => {
          const left = at - this.o.clock.now();
          if (left > 0) {
            this.timers.after(left, fire);
            return;
          }
          this.starts.delete(at);
          resolve();
        };
        this.timers.after(at - this.o.clock.now(), fire);
      });
      this.starts.set(at, start);
    }
    return start;
  }

  private launch(check: ClaimedCheck): void {
    this.inFlight += 1;
    const p = this.startOf(check.dueAt)
      .then(() =>
        this.o.probes.run(check.target, {
          now: () => this.o.clock.now(),
          allowPrivateTargets: this.o.allowPrivateTargets,
          lastHeartbeatAt: check.lastHeartbeatAt,
          ...(check.heartbeatRun && { heartbeatRun: check.heartbeatRun }),
          createdAt: check.createdAt,
          ...(this.o.tlsCa !== undefined && { tlsCa: this.o.tlsCa }),
        }),
      )
      .then((observation) => {
        this.o.onResult?.(check, observation);
        const urgent = this.mayChangeVerdict(check, observation);
        this.buffer.push({ monitorId: check.monitorId, regionCode: check.regionCode, dueAt: check.dueAt, observation });
        if (this.buffer.length >= this.o.batchSize) void this.flush();
        else this.flushWithin(urgent ? this.o.urgentFlushMs : this.o.flushMs);
      })
      .finally(() => this.probesInFlight.delete(p));
    this.probesInFlight.add(p);
  }

  /** Counts the result in its (monitor, region)'s run: true when it may open or resolve an incident, or degrade. */
  private mayChangeVerdict(check: ClaimedCheck, o: Observation): boolean {
    const config = check.target.config;
    const limit = typeof config.degraded_latency_ms === 'number' ? config.degraded_latency_ms : null;
    const outcome: Outcome = o.status === 'down' ? 'down' : isSlow(o, limit) ? 'slow' : 'up';
    // Kept as long as the engine keeps a silent region in the quorum: after that the run is stale anyway.
    const forgetAfterMs = staleAfterMs(check.target.interval_seconds * 1000);
    return this.runs.record(check.monitorId, check.regionCode, outcome, runThresholdsOf(config), forgetAfterMs);
  }

  /** Sends the buffer within `ms`: an earlier deadline replaces a later timer, a later one leaves it. */
  private flushWithin(ms: number): void {
    const dueAt = this.o.clock.now() + ms;
    if (this.flushTimer) {
      if (this.flushDueAt <= dueAt) return;
      this.timers.cancel(this.flushTimer);
    }
    this.flushDueAt = dueAt;
    this.flushTimer = this.timers.after(ms, () => void this.flush());
  }

  /**
   * Sends the buffered results; batches go out one at a time, in order. While a send is in progress, a flush queues
   * one send behind it, which takes what is buffered then (at most `batchSize`; a rest is queued again).
   */
  private flush(): Promise<void> {
    if (this.flushTimer) {
      this.timers.cancel(this.flushTimer);
      this.flushTimer = null;
    }
    if (this.buffer.length === 0 || this.sendQueued) return this.flushing;
    this.sendQueued = true;
    this.flushing = this.flushing.then(() => {
      this.sendQueued = false;
      const batch = this.buffer.splice(0, this.o.batchSize);
      // More than a batch waited (results kept coming during a slow send): the rest goes next, not after a timer.
      if (this.buffer.length > 0) void this.flush();
      return this.send(batch);
    });
    return this.flushing;
  }

  /** Hands one batch to the source (retried, then dropped) and frees its slots. */
  private async send(batch: CheckResult[]): Promise<void> {
    if (batch.length === 0) return;
    for (let attempt = 0; ; attempt++) {
      try {
        const dropped = await this.o.source.submit(batch);
        if (dropped > 0) {
          this.o.logger.warn({ dropped, results: batch.length }, 'results whose lease had ended were refused; dropped');
        }
        break;
      } catch (err) {
        // The reason only, no stack: while the source is down, the claim loop's outage line says so once.
        const reason = err instanceof Error ? err.message : String(err);
        if (attempt >= 4) {
          this.o.logger.error({ reason, results: batch.length }, 'sending check results failed; dropping this batch');
          break;
        }
        this.o.logger.debug({ reason, attempt }, 'sending check results failed; retrying');
        await new Promise<void>((r) => this.timers.after(250 * 2 ** attempt, r));
      }
    }
    this.inFlight -= batch.length;
    // Only a loop starved of slots is woken: waking its 100 ms pause or its sleep until the next due time after
    // every batch (4 a second under load) added claims (89 instead of 100 ms apart at 50 checks/s).
    if (this.waitingForSlots) this.loop.wake();
  }
}
