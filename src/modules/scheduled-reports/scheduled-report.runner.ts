import { createHash } from 'node:crypto';
import { hostname } from 'node:os';
import type { Clock } from '../../platform/clock.ts';
import type { Database } from '../../platform/db/index.ts';
import { DomainError } from '../../platform/errors.ts';
import { newId, randomToken } from '../../platform/ids.ts';
import type { Logger } from '../../platform/logger.ts';
import type { Actor, ServiceContext } from '../auth/index.ts';
import type { EventsService } from '../events/index.ts';
import { periodBefore } from './scheduled-report.period.ts';
import type {
  PlanOf,
  RenderedReport,
  RenderedRun,
  ReportDestinations,
  ReportRendering,
} from './scheduled-report.ports.ts';
import { nextRunAt } from './scheduled-report.schedule.ts';
import {
  FILE_KINDS,
  type FileKind,
  type ReportFile,
  type RunStatus,
  type ScheduledReport,
} from './scheduled-report.types.ts';
import { ScheduledReportsRepository } from './scheduled-reports.repository.ts';

/** How long the links in a delivery work (DECISIONS §12). */
export const FILE_TOKEN_TTL_MS = 7 * 86_400_000;

export interface ScheduledReportRunnerDeps {
  database: Database;
  clock: Clock;
  logger: Logger;
  events: Pick<EventsService, 'record'>;
  rendering: ReportRendering;
  destinations: ReportDestinations;
  planOf: PlanOf;
  publicUrl: string;
  /** How long a claimed run belongs to this process before another may take it over (ms). */
  leaseMs: number;
  /** Runs claimed per round. */
  batchSize?: number;
}

class LeaseLost extends Error {}

export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * Makes due runs exactly once across processes. A run: take the schedule's lease (a conditional UPDATE), render the
 * JSON, CSV and PDF outside any transaction, then in ONE transaction — only while the lease is still ours — store the
 * files, write the `scheduled_report` outbox event (the alert pipeline delivers it, durable and retried), record the
 * run and move next_run_at past now. A process killed before that commit leaves nothing: the lease runs out and the
 * run is made again; one killed after it has made the run, and the outbox delivers it. Later, when every delivery of
 * the run has ended, `settle` sets the run's and the schedule's last_status.
 */
export class ScheduledReportRunner {
  private readonly deps: ScheduledReportRunnerDeps;
  readonly owner: string;
  constructor(deps: ScheduledReportRunnerDeps) {
    this.deps = deps;
    this.owner = `${hostname()}:${process.pid}:${randomToken(6)}`;
  }

  /** Claims and makes the runs due now; returns how many runs it made. */
  async runDue(): Promise<number> {
    const repo = new ScheduledReportsRepository(this.deps.database);
    const now = this.deps.clock.now();
    let made = 0;
    for (const id of await repo.claimable(now, this.deps.batchSize ?? 10)) {
      const claimed = await repo.claim(id, this.owner, now, now + this.deps.leaseMs);
      if (!claimed) continue;
      if (await this.run(claimed)) made += 1;
    }
    return made;
  }

  /** Makes one claimed run; false when the lease was lost or the run must be tried again later. */
  private async run(schedule: ScheduledReport): Promise<boolean> {
    const { clock, logger } = this.deps;
    const startedAt = clock.now();
    const due = schedule.enabled && schedule.nextRunAt <= startedAt;
    // A catch-up after downtime is one run, and the next run is the next one after now, not after the missed time.
    const end = {
      nextRunAt: due ? nextRunAt(schedule, startedAt) : null,
      lastRunAt: startedAt,
      // A run-now request is answered by a run that was not due; a due run leaves the requests for the next round.
      consumeRequest: !due,
    };
    const log = { scheduled_report: schedule.id, organization: schedule.organizationId, manual: !due };
    let rendered: RenderedRun | null;
    try {
      rendered = await this.render(schedule, startedAt);
    } catch (err) {
      if (!(err instanceof DomainError)) {
        // The lease stays: the run is tried again when it runs out (a database or renderer failure may pass).
        logger.error({ ...log, err }, 'scheduled report: rendering failed; retried when the lease runs out');
        return false;
      }
      logger.warn({ ...log, reason: err.message }, 'scheduled report: cannot be rendered; the run failed');
      rendered = null;
    }
    try {
      await this.deps.database.transaction(async (tx) => {
        const repo = new ScheduledReportsRepository(tx);
        if (!(await repo.finishRun(schedule.id, this.owner, end))) throw new LeaseLost();
        const eventId = newId('evt', startedAt);
        const run = {
          eventId,
          scheduledReportId: schedule.id,
          organizationId: schedule.organizationId,
          manual: !due,
          periodFrom: rendered?.period.from ?? startedAt,
          periodTo: rendered?.period.to ?? startedAt,
          destinationCount: schedule.destinationIds.length,
          status: (rendered ? 'delivering' : 'failed') as RunStatus,
          startedAt,
          endedAt: rendered ? null : startedAt,
        };
        await repo.insertRun(run);
        if (!rendered) {
          await repo.setLastStatus(schedule.id, startedAt, 'failed');
          return;
        }
        const files = this.files(schedule, eventId, rendered.files, startedAt);
        await repo.insertFiles(files.map((f) => f.file));
        await this.deps.events.record(tx, {
          id: eventId,
          organizationId: schedule.organizationId,
          type: 'scheduled_report',
          monitorId: null,
          incidentId: null,
          occurredAt: startedAt,
          payload: {
            destination_ids: schedule.destinationIds,
            scheduled_report_id: schedule.id,
            report_type: schedule.reportType,
            period: {
              from: new Date(rendered.period.from).toISOString(),
              to: new Date(rendered.period.to).toISOString(),
              timezone: rendered.period.timezone,
            },
            summary: rendered.summary,
            files: Object.fromEntries(files.map((f) => [f.file.kind, f.ref])),
          },
        });
      });
    } catch (err) {
      if (err instanceof LeaseLost) {
        logger.warn(log, 'scheduled report: the run lease was taken over meanwhile; the other process makes the run');
        return false;
      }
      throw err;
    }
    logger.info({ ...log, ok: rendered !== null }, 'scheduled report run made');
    return rendered !== null;
  }

  /** The run's report built once (off the main thread) and encoded as every kind of file from that build. */
  private async render(schedule: ScheduledReport, now: number): Promise<RenderedRun> {
    const ctx = await this.contextFor(schedule);
    if (schedule.reportType === 'custom') {
      const run = await this.deps.rendering.renderCustom(ctx, schedule.customReportId ?? '', FILE_KINDS);
      if (!run) throw new DomainError('not_found', `Custom report ${schedule.customReportId} not found.`);
      return run;
    }
    return this.deps.rendering.render(
      ctx,
      schedule.reportType,
      periodBefore(schedule.frequency, now, schedule.timezone),
      FILE_KINDS,
    );
  }

  /** The run reports as the key that created the schedule sees the organization, with the plan it has now. */
  private async contextFor(schedule: ScheduledReport): Promise<ServiceContext> {
    const plan = await this.deps.planOf(schedule.organizationId);
    if (!plan) throw new DomainError('not_found', 'Organization not found.');
    const actor: Actor = {
      organizationId: schedule.organizationId,
      plan,
      keyId: schedule.createdByKeyId,
      userId: schedule.createdByUserId,
      serviceAccountId: null,
      role: 'member',
      scopes: new Set(['reports:read', 'custom_reports:read']),
      environments: schedule.environments,
      rateLimits: { read: 0, write: 0, delete: 0 },
    };
    return { actor, db: this.deps.database, clock: this.deps.clock };
  }

  private files(
    schedule: ScheduledReport,
    eventId: string,
    rendered: Record<FileKind, RenderedReport>,
    now: number,
  ): Array<{ file: ReportFile; ref: Record<string, unknown> }> {
    const base = this.deps.publicUrl.replace(/\/+$/, '');
    const expiresAt = now + FILE_TOKEN_TTL_MS;
    return FILE_KINDS.map((kind) => {
      const r = rendered[kind];
      const id = newId('rpf', now);
      const token = randomToken(32);
      const file: ReportFile = {
        id,
        organizationId: schedule.organizationId,
        scheduledReportId: schedule.id,
        eventId,
        kind,
        filename: r.filename,
        contentType: r.contentType,
        sizeBytes: r.body.length,
        body: r.body,
        tokenHash: tokenHash(token),
        expiresAt,
        createdAt: now,
      };
      // The link (with its token) travels in the outbox event so every retry of a delivery sends the same link; the
      // file row keeps only the token's hash.
      const ref = {
        id,
        url: `${base}/api/v1/report-files/${id}?token=${token}`,
        filename: r.filename,
        content_type: r.contentType,
        size_bytes: r.body.length,
        expires_at: new Date(expiresAt).toISOString(),
      };
      return { file, ref };
    });
  }

  // ───────────── settling ─────────────

  /**
   * Sets the run's status once every delivery of it has ended: `delivered` when each destination accepted it,
   * `failed` when none did, `partially_delivered` otherwise (a destination deleted before the run was fanned out
   * counts as not delivered). The run row is locked first, so two processes ending its last deliveries at once
   * settle it once, the later one seeing both results.
   */
  async settle(eventId: string): Promise<RunStatus | null> {
    const now = this.deps.clock.now();
    return this.deps.database.transaction(async (tx) => {
      const repo = new ScheduledReportsRepository(tx);
      if (!(await repo.lockDelivering(eventId))) return null;
      const run = await repo.findRun(eventId);
      if (!run) return null;
      const { fannedOut, statuses } = await this.deps.destinations.outcome(tx, eventId);
      if (!fannedOut || statuses.some((s) => s === 'pending' || s === 'in_flight')) return null;
      const delivered = statuses.filter((s) => s === 'delivered').length;
      const status =
        delivered >= run.destinationCount && delivered > 0
          ? 'delivered'
          : delivered === 0
            ? 'failed'
            : 'partially_delivered';
      await repo.settleRun(eventId, status, now);
      await repo.setLastStatus(run.scheduledReportId, run.startedAt, status);
      return status;
    });
  }

  /** Settles every run still delivering whose deliveries have all ended (a sweep after crashes and restarts). */
  async settleAll(): Promise<number> {
    const runs = await new ScheduledReportsRepository(this.deps.database).deliveringRuns(200);
    let settled = 0;
    for (const run of runs) if (await this.settle(run.eventId)) settled += 1;
    return settled;
  }
}
