import { sql } from 'kysely';
import type { Database } from '../../platform/db/index.ts';
import { fromJson, toBool, toJson } from '../../platform/db/index.ts';
import type { Frequency } from './scheduled-report.schedule.ts';
import type {
  FileKind,
  LastStatus,
  ReportFile,
  RunStatus,
  ScheduledReport,
  ScheduledReportRun,
  ScheduledReportType,
} from './scheduled-report.types.ts';
import type {
  ReportFileRow,
  ScheduledReportRow,
  ScheduledReportRunRow,
  ScheduledReportsTables,
} from './scheduled-reports.tables.ts';

const num = (v: number | null): number | null => (v === null ? null : Number(v));

function toSchedule(r: ScheduledReportRow): ScheduledReport {
  return {
    id: r.id,
    organizationId: r.organization_id,
    reportType: r.report_type as ScheduledReportType,
    customReportId: r.custom_report_id,
    frequency: r.frequency as Frequency,
    dayOfWeek: num(r.day_of_week),
    dayOfMonth: num(r.day_of_month),
    timeOfDay: r.time_of_day,
    timezone: r.timezone,
    destinationIds: fromJson<string[]>(r.destination_ids),
    enabled: toBool(r.enabled),
    nextRunAt: Number(r.next_run_at),
    lastRunAt: num(r.last_run_at),
    lastStatus: r.last_status as LastStatus,
    runRequests: Number(r.run_requests),
    createdByUserId: r.created_by_user_id,
    createdByKeyId: r.created_by_key_id,
    environments: fromJson<string[]>(r.environments),
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
  };
}

function toRow(s: ScheduledReport): Omit<ScheduledReportRow, 'lease_owner' | 'lease_until'> {
  return {
    id: s.id,
    organization_id: s.organizationId,
    report_type: s.reportType,
    custom_report_id: s.customReportId,
    frequency: s.frequency,
    day_of_week: s.dayOfWeek,
    day_of_month: s.dayOfMonth,
    time_of_day: s.timeOfDay,
    timezone: s.timezone,
    destination_ids: toJson(s.destinationIds),
    enabled: s.enabled ? 1 : 0,
    next_run_at: s.nextRunAt,
    last_run_at: s.lastRunAt,
    last_status: s.lastStatus,
    run_requests: s.runRequests,
    created_by_user_id: s.createdByUserId,
    created_by_key_id: s.createdByKeyId,
    environments: toJson(s.environments),
    created_at: s.createdAt,
    updated_at: s.updatedAt,
  };
}

function toRun(r: ScheduledReportRunRow): ScheduledReportRun {
  return {
    eventId: r.event_id,
    scheduledReportId: r.scheduled_report_id,
    organizationId: r.organization_id,
    manual: toBool(r.manual),
    periodFrom: Number(r.period_from),
    periodTo: Number(r.period_to),
    destinationCount: Number(r.destination_count),
    status: r.status as RunStatus,
    startedAt: Number(r.started_at),
    endedAt: num(r.ended_at),
  };
}

function toFile(r: ReportFileRow): ReportFile {
  return {
    id: r.id,
    organizationId: r.organization_id,
    scheduledReportId: r.scheduled_report_id,
    eventId: r.event_id,
    kind: r.kind as FileKind,
    filename: r.filename,
    contentType: r.content_type,
    sizeBytes: Number(r.size_bytes),
    body: Buffer.from(r.body),
    tokenHash: r.token_hash,
    expiresAt: Number(r.expires_at),
    createdAt: Number(r.created_at),
  };
}

/** What a finished run writes on its schedule (only while the run's lease is still this process's). */
export interface RunEnd {
  nextRunAt: number | null;
  lastRunAt: number;
  /** A manual run clears the request it answered. */
  consumeRequest: boolean;
}

export class ScheduledReportsRepository {
  private readonly db;
  private readonly dialect: Database['dialect'];
  constructor(database: Database) {
    this.db = database.tables<ScheduledReportsTables>();
    this.dialect = database.dialect;
  }

  // ───────────── schedules ─────────────

  async insert(s: ScheduledReport): Promise<void> {
    await this.db
      .insertInto('scheduled_report')
      .values({ ...toRow(s), lease_owner: null, lease_until: null })
      .execute();
  }

  async find(organizationId: string, id: string): Promise<ScheduledReport | null> {
    const row = await this.db
      .selectFrom('scheduled_report')
      .selectAll()
      .where('id', '=', id)
      .where('organization_id', '=', organizationId)
      .executeTakeFirst();
    return row ? toSchedule(row) : null;
  }

  async findAnywhere(id: string): Promise<ScheduledReport | null> {
    const row = await this.db.selectFrom('scheduled_report').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toSchedule(row) : null;
  }

  /**
   * The row again, locked for the rest of the transaction: `FOR UPDATE` on PostgreSQL; on SQLite a no-op write
   * takes the database's write lock at once, so the read that follows sees the last committed version.
   */
  async findForUpdate(organizationId: string, id: string): Promise<ScheduledReport | null> {
    if (this.dialect === 'postgres') {
      const row = await this.db
        .selectFrom('scheduled_report')
        .selectAll()
        .where('id', '=', id)
        .where('organization_id', '=', organizationId)
        .forUpdate()
        .executeTakeFirst();
      return row ? toSchedule(row) : null;
    }
    await this.db
      .updateTable('scheduled_report')
      .set({ id: sql<string>`id` })
      .where('id', '=', id)
      .execute();
    return this.find(organizationId, id);
  }

  async list(organizationId: string, after: string | null, limit: number): Promise<ScheduledReport[]> {
    let q = this.db
      .selectFrom('scheduled_report')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .orderBy('id')
      .limit(limit);
    if (after) q = q.where('id', '>', after);
    return (await q.execute()).map(toSchedule);
  }

  /** Each schedule of the organization that sends to a destination, as its destination ids and environments. */
  async destinationSenders(
    organizationId: string,
  ): Promise<Array<{ destinationIds: string[]; environments: string[] }>> {
    const rows = await this.db
      .selectFrom('scheduled_report')
      .select(['destination_ids', 'environments'])
      .where('organization_id', '=', organizationId)
      .execute();
    return rows.map((r) => ({
      destinationIds: fromJson<string[]>(r.destination_ids),
      environments: fromJson<string[]>(r.environments),
    }));
  }

  /** Writes the user-editable fields and next_run_at (the lease and run bookkeeping are left as they are). */
  async update(s: ScheduledReport): Promise<void> {
    await this.db
      .updateTable('scheduled_report')
      .set({
        report_type: s.reportType,
        custom_report_id: s.customReportId,
        frequency: s.frequency,
        day_of_week: s.dayOfWeek,
        day_of_month: s.dayOfMonth,
        time_of_day: s.timeOfDay,
        timezone: s.timezone,
        destination_ids: toJson(s.destinationIds),
        enabled: s.enabled ? 1 : 0,
        next_run_at: s.nextRunAt,
        updated_at: s.updatedAt,
      })
      .where('id', '=', s.id)
      .where('organization_id', '=', s.organizationId)
      .execute();
  }

  async delete(organizationId: string, id: string): Promise<boolean> {
    const r = await this.db
      .deleteFrom('scheduled_report')
      .where('id', '=', id)
      .where('organization_id', '=', organizationId)
      .executeTakeFirst();
    return Number(r.numDeletedRows) === 1;
  }

  async requestRun(organizationId: string, id: string): Promise<boolean> {
    const r = await this.db
      .updateTable('scheduled_report')
      .set({ run_requests: sql<number>`run_requests + 1` })
      .where('id', '=', id)
      .where('organization_id', '=', organizationId)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  // ───────────── the run lease ─────────────

  /** Schedules with a run to make now (due and enabled, or asked for) whose lease is free or expired. */
  async claimable(now: number, limit: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('scheduled_report')
      .select('id')
      .where((eb) =>
        eb.and([
          eb.or([eb.and([eb('enabled', '=', 1), eb('next_run_at', '<=', now)]), eb('run_requests', '>', 0)]),
          eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]),
        ]),
      )
      .orderBy('next_run_at')
      .limit(limit)
      .execute();
    return rows.map((r) => r.id);
  }

  /**
   * Takes the run lease of one schedule if it is still claimable: one conditional UPDATE, so of several processes
   * racing for it exactly one sees a row changed (PostgreSQL re-checks the condition on the row it waited for).
   */
  async claim(id: string, owner: string, now: number, until: number): Promise<ScheduledReport | null> {
    const r = await this.db
      .updateTable('scheduled_report')
      .set({ lease_owner: owner, lease_until: until })
      .where('id', '=', id)
      .where((eb) =>
        eb.and([
          eb.or([eb.and([eb('enabled', '=', 1), eb('next_run_at', '<=', now)]), eb('run_requests', '>', 0)]),
          eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]),
        ]),
      )
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) !== 1) return null;
    return this.findAnywhere(id);
  }

  /** Ends a run on its schedule, only while `owner` still holds the lease; false when it was lost. */
  async finishRun(id: string, owner: string, end: RunEnd): Promise<boolean> {
    let q = this.db
      .updateTable('scheduled_report')
      .set({
        ...(end.nextRunAt !== null && { next_run_at: end.nextRunAt }),
        last_run_at: end.lastRunAt,
        lease_owner: null,
        lease_until: null,
      })
      .where('id', '=', id)
      .where('lease_owner', '=', owner);
    if (end.consumeRequest) {
      q = q.set({ run_requests: sql<number>`case when run_requests > 0 then run_requests - 1 else 0 end` });
    }
    const r = await q.executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  async release(id: string, owner: string): Promise<void> {
    await this.db
      .updateTable('scheduled_report')
      .set({ lease_owner: null, lease_until: null })
      .where('id', '=', id)
      .where('lease_owner', '=', owner)
      .execute();
  }

  /** When the earliest run may become claimable (a due time, a request, or a lease running out); null if never. */
  async nextWorkAt(now: number): Promise<number | null> {
    const row = await this.db
      .selectFrom('scheduled_report')
      .select((eb) => [
        eb.fn.min(sql<number>`case when enabled = 1 and lease_until is null then next_run_at end`).as('due'),
        eb.fn.min(sql<number>`case when run_requests > 0 and lease_until is null then ${now} end`).as('requested'),
        eb.fn.min(sql<number>`case when lease_until is not null then lease_until + 1 end`).as('lease'),
      ])
      .executeTakeFirst();
    const candidates = [row?.due, row?.requested, row?.lease]
      .filter((v): v is number => v !== null && v !== undefined)
      .map(Number);
    return candidates.length === 0 ? null : Math.min(...candidates);
  }

  async setLastStatus(id: string, lastRunAt: number, status: LastStatus): Promise<void> {
    await this.db
      .updateTable('scheduled_report')
      .set({ last_status: status })
      .where('id', '=', id)
      .where('last_run_at', '=', lastRunAt)
      .execute();
  }

  // ───────────── runs ─────────────

  async insertRun(run: ScheduledReportRun): Promise<void> {
    await this.db
      .insertInto('scheduled_report_run')
      .values({
        event_id: run.eventId,
        scheduled_report_id: run.scheduledReportId,
        organization_id: run.organizationId,
        manual: run.manual ? 1 : 0,
        period_from: run.periodFrom,
        period_to: run.periodTo,
        destination_count: run.destinationCount,
        status: run.status,
        started_at: run.startedAt,
        ended_at: run.endedAt,
      })
      .execute();
  }

  async runsOf(scheduledReportId: string): Promise<ScheduledReportRun[]> {
    const rows = await this.db
      .selectFrom('scheduled_report_run')
      .selectAll()
      .where('scheduled_report_id', '=', scheduledReportId)
      .orderBy('started_at')
      .execute();
    return rows.map(toRun);
  }

  /** The schedule's latest runs, newest first. */
  async recentRuns(scheduledReportId: string, limit: number): Promise<ScheduledReportRun[]> {
    const rows = await this.db
      .selectFrom('scheduled_report_run')
      .selectAll()
      .where('scheduled_report_id', '=', scheduledReportId)
      .orderBy('started_at', 'desc')
      .orderBy('event_id', 'desc')
      .limit(limit)
      .execute();
    return rows.map(toRun);
  }

  async findRun(eventId: string): Promise<ScheduledReportRun | null> {
    const row = await this.db
      .selectFrom('scheduled_report_run')
      .selectAll()
      .where('event_id', '=', eventId)
      .executeTakeFirst();
    return row ? toRun(row) : null;
  }

  async deliveringRuns(limit: number): Promise<ScheduledReportRun[]> {
    const rows = await this.db
      .selectFrom('scheduled_report_run')
      .selectAll()
      .where('status', '=', 'delivering')
      .orderBy('started_at')
      .limit(limit)
      .execute();
    return rows.map(toRun);
  }

  /**
   * Locks a run that is still delivering for the rest of the transaction (a no-op write: a row lock on PostgreSQL,
   * the write lock on SQLite), so two processes that end its last two deliveries at once settle it once; false when
   * it has already been settled.
   */
  async lockDelivering(eventId: string): Promise<boolean> {
    const r = await this.db
      .updateTable('scheduled_report_run')
      .set({ status: sql<string>`status` })
      .where('event_id', '=', eventId)
      .where('status', '=', 'delivering')
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  async settleRun(eventId: string, status: Exclude<RunStatus, 'delivering'>, endedAt: number): Promise<void> {
    await this.db
      .updateTable('scheduled_report_run')
      .set({ status, ended_at: endedAt })
      .where('event_id', '=', eventId)
      .where('status', '=', 'delivering')
      .execute();
  }

  // ───────────── files ─────────────

  async insertFiles(files: readonly ReportFile[]): Promise<void> {
    if (files.length === 0) return;
    await this.db
      .insertInto('report_file')
      .values(
        files.map((f) => ({
          id: f.id,
          organization_id: f.organizationId,
          scheduled_report_id: f.scheduledReportId,
          event_id: f.eventId,
          kind: f.kind,
          filename: f.filename,
          content_type: f.contentType,
          size_bytes: f.sizeBytes,
          body: f.body,
          token_hash: f.tokenHash,
          expires_at: f.expiresAt,
          created_at: f.createdAt,
        })),
      )
      .execute();
  }

  async findFile(id: string): Promise<ReportFile | null> {
    const row = await this.db.selectFrom('report_file').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toFile(row) : null;
  }

  async deleteExpiredFiles(now: number): Promise<number> {
    const r = await this.db.deleteFrom('report_file').where('expires_at', '<=', now).executeTakeFirst();
    return Number(r.numDeletedRows);
  }

  async nextFileExpiry(): Promise<number | null> {
    const row = await this.db
      .selectFrom('report_file')
      .select((eb) => eb.fn.min('expires_at').as('at'))
      .executeTakeFirst();
    return row?.at === null || row?.at === undefined ? null : Number(row.at);
  }
}
