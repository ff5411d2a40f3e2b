import type { Clock } from '../../../platform/clock.ts';
import { PrecompiledQueries, type Database } from '../../../platform/db/index.ts';
import { notFound } from '../../../platform/errors.ts';
import { newId } from '../../../platform/ids.ts';
import type { HeartbeatTarget } from '../../monitors/index.ts';
import { ScheduleRepository } from '../scheduler/schedule.repository.ts';
import { HeartbeatsRepository, type EndsOfMonitor } from './heartbeats.repository.ts';
import { PingCommitQueue } from './ping-commit.queue.ts';
import type { HeartbeatSignalRow } from './heartbeats.tables.ts';

/** The first bytes of a ping's body that are kept; the rest is read and dropped (`truncated`). */
export const PING_BODY_KEPT_BYTES = 100 * 1024;

export type SignalKind = 'success' | 'start' | 'fail' | 'log';

/** One ping as the route read it. */
export interface PingInput {
  kind: SignalKind;
  exitCode: number | null;
  rid: string | null;
  /** The kept part of the body (at most PING_BODY_KEPT_BYTES) and the whole body's size. */
  body: Buffer | null;
  bodyBytes: number;
  sourceIp: string | null;
  userAgent: string | null;
}

export interface PingAck {
  monitor: HeartbeatTarget;
  receivedAt: number;
  signal: HeartbeatSignalRow;
}

export interface HeartbeatsServiceDeps {
  database: Database;
  clock: Clock;
  /** The monitors of tokens, by token, read through `db` (the ping batch's transaction). */
  findByTokens(tokens: readonly string[], db: Database): Promise<Map<string, HeartbeatTarget>>;
  /** Told, inside the ping's transaction, that it made a monitor's check due now (an idle runner claims it at once). */
  madeDue?(tx: Database): void;
}

/** The body as stored: UTF-8 text (invalid sequences replaced), cut at the kept size. */
function bodyText(body: Buffer | null): string | null {
  if (body === null || body.length === 0) return null;
  return body.subarray(0, PING_BODY_KEPT_BYTES).toString('utf8');
}

/** Unfiled signals (HeartbeatsRepository.fileSignals) that make a batch enter them in the monitor index. */
const FILE_SIGNALS_EVERY = 1000;

/** A ping waiting for its batch: by token (looked up in the batch) or for a monitor already found (a slug). */
interface QueuedPing {
  token: string | null;
  monitor: HeartbeatTarget | null;
  input: PingInput;
  signal: HeartbeatSignalRow;
  now: number;
}

/** Push pings for heartbeat monitors (`GET|POST /api/v1/heartbeats/{token}[/start|/fail|/{code}|/log]`). */
export class HeartbeatsService {
  private readonly deps: HeartbeatsServiceDeps;
  private readonly commits: PingCommitQueue<QueuedPing>;
  /** The ping batch's statements, compiled once per shape (HeartbeatsRepository). */
  private readonly queries = new PrecompiledQueries();
  /**
   * Signals stored unfiled since the last filing. A new process does not know what an earlier one left unfiled, so it
   * counts as due: its first batch files them, and a process restarted after every few pings cannot let them gather.
   */
  private unfiled = FILE_SIGNALS_EVERY;
  constructor(deps: HeartbeatsServiceDeps) {
    this.deps = deps;
    this.commits = new PingCommitQueue(deps.database, (tx, pings) => this.writeBatch(tx, pings));
  }

  /** A ping to a token. Unknown and non-heartbeat tokens are the same 404. */
  async ping(token: string, input: PingInput = SUCCESS): Promise<PingAck> {
    const now = this.deps.clock.now();
    const queued: QueuedPing = { token, monitor: null, input, signal: signalOf(input, now), now };
    await this.commits.run(queued);
    if (queued.monitor === null) throw notFound('Heartbeat monitor');
    return { monitor: queued.monitor, receivedAt: now, signal: queued.signal };
  }

  /** A ping to a monitor already found (by the organization's ping key and a slug). */
  async record(monitor: HeartbeatTarget, input: PingInput): Promise<PingAck> {
    const now = this.deps.clock.now();
    const queued: QueuedPing = { token: null, monitor, input, signal: signalOf(input, now), now };
    await this.commits.run(queued);
    return { monitor, receivedAt: now, signal: queued.signal };
  }

  /**
   * One transaction for the pings of a moment (PingCommitQueue): each ping's signal is stored and its monitor's state
   * moved, and the pings are acknowledged once it is committed. The tokens are looked up here, inside it: on SQLite's
   * one connection a read outside waited for the transaction in flight, one ping at a time. The common ping (an end
   * of a run while none is open) is written with the others of its batch: one insert of their signals and one
   * statement for their monitors' states; a start, a log, or an end while runs are open is written alone, in order.
   * A fail, or any end while the monitor is not up, makes its check due now (the verdict does not wait).
   */
  private async writeBatch(tx: Database, pings: QueuedPing[]): Promise<void> {
    const tokens = [...new Set(pings.flatMap((p) => (p.token === null ? [] : [p.token])))];
    const byToken = await this.deps.findByTokens(tokens, tx);
    const repository = new HeartbeatsRepository(tx, this.queries);
    // Filed before this batch's own are stored: what earlier batches (or an earlier process) left unfiled.
    if (repository.defersFiling && this.unfiled >= FILE_SIGNALS_EVERY) {
      await repository.fileSignals();
      this.unfiled = 0;
    }
    const found = pings.filter((p) => {
      const monitor = p.token === null ? p.monitor : (byToken.get(p.token) ?? null);
      p.monitor = monitor?.type === 'heartbeat' ? monitor : null;
      return p.monitor !== null;
    });
    const openSince = await repository.openSinceOf([...new Set(found.map((p) => p.monitor!.id))]);
    const signals: HeartbeatSignalRow[] = [];
    const ends = new Map<string, EndsOfMonitor>();
    const due = new Map<string, number>();
    const writeGathered = async () => {
      if (repository.defersFiling) this.unfiled += signals.length;
      await repository.insertSignals(signals.splice(0));
      await repository.recordEnds([...ends.values()]);
      ends.clear();
    };
    for (const ping of found) {
      const monitor = ping.monitor!;
      const { input, signal, now } = ping;
      signal.monitor_id = monitor.id;
      signal.organization_id = monitor.organizationId;
      signal.duration_ms = null;
      const end = input.kind === 'success' || input.kind === 'fail';
      if (end && (openSince.get(monitor.id) ?? null) === null) {
        signals.push(signal);
        const ended = ends.get(monitor.id) ?? { monitorId: monitor.id, pings: 0, lastPingAt: now, lastFail: null };
        ended.pings++;
        ended.lastPingAt = now;
        if (input.kind === 'fail') ended.lastFail = { at: now, exitCode: input.exitCode };
        ends.set(monitor.id, ended);
      } else {
        await writeGathered();
        await this.writeAlone(repository, monitor, input, signal, now);
        openSince.set(monitor.id, await repository.openSince(monitor.id));
      }
      const judgeNow = input.kind === 'fail' || (input.kind === 'success' && monitor.status !== 'up');
      if (judgeNow && !monitor.paused) due.set(monitor.id, now);
    }
    await writeGathered();
    for (const [monitorId, now] of due) await new ScheduleRepository(tx).makeDueNow(monitorId, now);
    if (due.size > 0) this.deps.madeDue?.(tx);
  }

  /** A start, a log, or an end while runs are open: pairs starts with ends by run id and records the run's duration. */
  private async writeAlone(
    repository: HeartbeatsRepository,
    monitor: HeartbeatTarget,
    input: PingInput,
    signal: HeartbeatSignalRow,
    now: number,
  ): Promise<void> {
    const end = input.kind === 'success' || input.kind === 'fail';
    const runsOpen = input.kind !== 'log' && (await repository.openSince(monitor.id)) !== null;
    if (input.kind === 'start') {
      // A new start of the same run id (or without one) replaces the start that never ended.
      await repository.closeStarts(monitor.id, input.rid);
    } else if (end && runsOpen) {
      const start = await repository.openStart(monitor.id, input.rid);
      if (start) signal.duration_ms = Math.max(0, now - start.at);
      // An end with a run id ends that run; one without ends every run in progress.
      await repository.closeStarts(monitor.id, input.rid ?? 'all');
    }
    await repository.insertSignal(signal);
    if (input.kind === 'log') return;
    await repository.updateState(
      monitor.id,
      monitor.createdAt,
      end ? { at: now, failed: input.kind === 'fail', exitCode: input.exitCode } : null,
      runsOpen || input.kind === 'start',
    );
  }

  lastPings(monitorIds: readonly string[]): Promise<Map<string, number>> {
    return new HeartbeatsRepository(this.deps.database).lastPings(monitorIds);
  }

  /** A monitor's pings, newest first (the caller checked the monitor is the actor's). */
  listSignals(monitorId: string, limit: number, beforeId: string | undefined): Promise<HeartbeatSignalRow[]> {
    return new HeartbeatsRepository(this.deps.database).listSignals(monitorId, limit, beforeId);
  }

  /** The last end of a run (epoch ms), for the next expected ping; null when none. */
  async lastPingAt(monitorId: string): Promise<number | null> {
    const states = await new HeartbeatsRepository(this.deps.database).states([monitorId]);
    const s = states.get(monitorId);
    return s && s.lastPingAt !== null ? s.lastPingAt : null;
  }
}

/** The signal row of a ping (its monitor filled in when it is written). */
function signalOf(input: PingInput, now: number): HeartbeatSignalRow {
  return {
    id: newId('png', now),
    monitor_id: '',
    organization_id: '',
    kind: input.kind,
    at: now,
    rid: input.rid,
    open: input.kind === 'start' ? 1 : 0,
    duration_ms: null,
    exit_code: input.exitCode,
    body: bodyText(input.body),
    body_bytes: input.bodyBytes,
    truncated: input.bodyBytes > PING_BODY_KEPT_BYTES ? 1 : 0,
    source_ip: input.sourceIp,
    user_agent: input.userAgent?.slice(0, 512) ?? null,
  };
}

const SUCCESS: PingInput = {
  kind: 'success',
  exitCode: null,
  rid: null,
  body: null,
  bodyBytes: 0,
  sourceIp: null,
  userAgent: null,
};
