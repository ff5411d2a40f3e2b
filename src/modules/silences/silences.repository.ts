import type { Database } from '../../platform/db/index.ts';
import { fromJson, toJson } from '../../platform/db/index.ts';
import type { Silence } from './silence.types.ts';
import type { SilenceRow, SilencesTables } from './silences.tables.ts';

function toSilence(r: SilenceRow): Silence {
  return {
    id: r.id,
    organizationId: r.organization_id,
    matchers: {
      monitorIds: fromJson<string[]>(r.monitor_ids),
      tags: fromJson<string[]>(r.tags),
      events: fromJson<string[]>(r.events),
      destinationIds: fromJson<string[]>(r.destination_ids),
    },
    startsAt: Number(r.starts_at),
    endsAt: Number(r.ends_at),
    comment: r.comment,
    createdBy: r.created_by,
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
  };
}

function toRow(s: Silence): SilenceRow {
  return {
    id: s.id,
    organization_id: s.organizationId,
    monitor_ids: toJson(s.matchers.monitorIds),
    tags: toJson(s.matchers.tags),
    events: toJson(s.matchers.events),
    destination_ids: toJson(s.matchers.destinationIds),
    starts_at: s.startsAt,
    ends_at: s.endsAt,
    comment: s.comment,
    created_by: s.createdBy,
    created_at: s.createdAt,
    updated_at: s.updatedAt,
  };
}

export class SilencesRepository {
  private readonly db;
  constructor(database: Database) {
    this.db = database.tables<SilencesTables>();
  }

  async insert(silence: Silence): Promise<void> {
    await this.db.insertInto('silence').values(toRow(silence)).execute();
  }

  async find(organizationId: string, id: string): Promise<Silence | null> {
    const row = await this.db
      .selectFrom('silence')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? toSilence(row) : null;
  }

  /** Newest first (ids are time-sortable), `limit` rows before the cursor id; `endedAfter` keeps those ending later. */
  async list(organizationId: string, limit: number, before?: string, endedAfter?: number): Promise<Silence[]> {
    let q = this.db.selectFrom('silence').selectAll().where('organization_id', '=', organizationId);
    if (before !== undefined) q = q.where('id', '<', before);
    if (endedAfter !== undefined) q = q.where('ends_at', '>', endedAfter);
    const rows = await q.orderBy('id', 'desc').limit(limit).execute();
    return rows.map(toSilence);
  }

  /** The silences of these organizations that hold at some moment of [from, to] (the fan-out's read). */
  async overlapping(organizationIds: readonly string[], from: number, to: number): Promise<Silence[]> {
    if (organizationIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('silence')
      .selectAll()
      .where('organization_id', 'in', [...organizationIds])
      .where('ends_at', '>', from)
      .where('starts_at', '<=', to)
      .execute();
    return rows.map(toSilence);
  }

  /** Writes the silence's times (ending it early). */
  async updateTimes(silence: Silence): Promise<void> {
    await this.db
      .updateTable('silence')
      .set({ starts_at: silence.startsAt, ends_at: silence.endsAt, updated_at: silence.updatedAt })
      .where('organization_id', '=', silence.organizationId)
      .where('id', '=', silence.id)
      .execute();
  }

  async delete(organizationId: string, id: string): Promise<boolean> {
    const r = await this.db
      .deleteFrom('silence')
      .where('organization_id', '=', organizationId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }
}
