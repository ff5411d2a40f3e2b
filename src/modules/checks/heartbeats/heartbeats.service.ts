import type { Clock } from '../../../platform/clock.ts';
import type { Database } from '../../../platform/db/index.ts';
import { notFound } from '../../../platform/errors.ts';
import { newId } from '../../../platform/ids.ts';
import type { Monitor } from '../../monitors/index.ts';
import { ScheduleRepository } from '../scheduler/schedule.repository.ts';
import { HeartbeatsRepository } from './heartbeats.repository.ts';
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
  monitor: Monitor;
  receivedAt: number;
  signal: HeartbeatSignalRow;
}

export interface HeartbeatsServiceDeps {
  database: Database;
  clock: Clock;
  /** The monitor of a token, read through `db` (the ping batch's transaction). */
  findByToken(token: string, db: Database): Promise<Monitor | null>;
  /** Told, inside the ping's transaction, that it made a monitor's check due now (an idle runner claims it at once). */
  madeDue?(tx: Database): void;
}

/** The body as stored: UTF-8 text (invalid sequences replaced), cut at the kept size. */
function bodyText(body: Buffer | null): string | null {
  if (body === null || body.length === 0) return null;
  return body.subarray(0, PING_BODY_KEPT_BYTES).toString('utf8');
}

/** Push pings for heartbeat monitors (`GET|POST /api/v1/heartbeats/{token}[/start|/fail|/{code}|/log]`). */
export class HeartbeatsService {
  private readonly deps: HeartbeatsServiceDeps;
  private readonly commits: PingCommitQueue;
  constructor(deps: HeartbeatsServiceDeps) {
    this.deps = deps;
    this.commits = new PingCommitQueue(deps.database);
  }

  /**
   * A ping to a token. Unknown and non-heartbeat tokens are the same 404. The token is looked up inside the ping's
   * batch transaction, not before it: on SQLite's one connection a read waits for the transaction in flight, so a
   * lookup outside it made every ping wait for the previous one's commit and each batch held one ping.
   */
  async ping(token: string, input: PingInput = SUCCESS): Promise<PingAck> {
    const now = this.deps.clock.now();
    const signal = signalOf(input, now);
    let monitor: Monitor | null = null;
    await this.commits.run(async (tx) => {
      monitor = null;
      const found = await this.deps.findByToken(token, tx);
      if (!found || found.type !== 'heartbeat') return;
      monitor = found;
      await this.write(tx, found, input, signal, now);
    });
    if (monitor === null) throw notFound('Heartbeat monitor');
    return { monitor, receivedAt: now, signal };
  }

  /**
   * Stores the signal and moves the monitor's state in one transaction (shared with the pings that arrive at the
   * same moment: PingCommitQueue): the ping is acknowledged once both are committed. A fail, or any end while the
   * monitor is not up, makes its check due now (the verdict does not wait).
   */
  async record(monitor: Monitor, input: PingInput): Promise<PingAck> {
    const now = this.deps.clock.now();
    const signal = signalOf(input, now);
    await this.commits.run((tx) => this.write(tx, monitor, input, signal, now));
    return { monitor, receivedAt: now, signal };
  }

  private async write(
    tx: Database,
    monitor: Monitor,
    input: PingInput,
    signal: HeartbeatSignalRow,
    now: number,
  ): Promise<void> {
    // Set again on each attempt: a batch that failed runs its pings again one by one.
    signal.monitor_id = monitor.id;
    signal.organization_id = monitor.organizationId;
    signal.duration_ms = null;
    const repository = new HeartbeatsRepository(tx);
    const end = input.kind === 'success' || input.kind === 'fail';
    // Most pings end no run (nothing is open): one read spares the pairing statements.
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
    const judgeNow = input.kind === 'fail' || (input.kind === 'success' && monitor.status !== 'up');
    if (judgeNow && !monitor.paused) {
      await new ScheduleRepository(tx).makeDueNow(monitor.id, now);
      this.deps.madeDue?.(tx);
    }
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
