import type { Database } from '../../platform/db/index.ts';
import { fromJson, toJson } from '../../platform/db/index.ts';
import type { DestinationType, EventType } from './destinations/index.ts';
import type { DestinationRow, AlertingTables, SlackInstallStateRow } from './alerting.tables.ts';
import type { Destination } from './alerting.types.ts';

function toDestination(row: DestinationRow): Destination {
  return {
    id: row.id,
    organizationId: row.organization_id,
    type: row.type as DestinationType,
    name: row.name,
    events: fromJson<EventType[]>(row.events),
    config: fromJson<Record<string, unknown>>(row.config),
    sealedSecrets: row.sealed_secrets,
    payloadFormat: row.payload_format as Destination['payloadFormat'],
    groupWindowSeconds: Number(row.group_window_seconds ?? 0),
    state: fromJson<Record<string, unknown>>(row.state),
    lastSuccessAt: row.last_success_at,
    lastFailureAt: row.last_failure_at,
    lastFailureReason: row.last_failure_reason,
    needsReauthorization: row.needs_reauthorization === 1,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function toRow(d: Destination): DestinationRow {
  return {
    id: d.id,
    organization_id: d.organizationId,
    type: d.type,
    name: d.name,
    events: toJson(d.events),
    config: toJson(d.config),
    sealed_secrets: d.sealedSecrets,
    payload_format: d.payloadFormat,
    group_window_seconds: d.groupWindowSeconds,
    state: toJson(d.state),
    last_success_at: d.lastSuccessAt,
    last_failure_at: d.lastFailureAt,
    last_failure_reason: d.lastFailureReason,
    needs_reauthorization: d.needsReauthorization ? 1 : 0,
    created_at: d.createdAt,
    updated_at: d.updatedAt,
  };
}

/** The outcome of one delivery attempt as the destination records it. */
export type AttemptRecord =
  { ok: true; at: number } | { ok: false; at: number; reason: string; needsReauthorization: boolean };

export class DestinationsRepository {
  private readonly db;
  private readonly dialect: Database['dialect'];
  constructor(database: Database) {
    this.db = database.tables<AlertingTables>();
    this.dialect = database.dialect;
  }

  async insert(d: Destination): Promise<void> {
    await this.db.insertInto('destination').values(toRow(d)).execute();
  }

  async update(d: Destination): Promise<void> {
    const row = toRow(d);
    // Attempt results (last_*) are written by recordAttempt only; creation time never changes.
    const { id, organization_id: organizationId } = row;
    const rest = {
      type: row.type,
      name: row.name,
      events: row.events,
      config: row.config,
      sealed_secrets: row.sealed_secrets,
      payload_format: row.payload_format,
      group_window_seconds: row.group_window_seconds,
      state: row.state,
      needs_reauthorization: row.needs_reauthorization,
      updated_at: row.updated_at,
    };
    await this.db
      .updateTable('destination')
      .set(rest)
      .where('id', '=', id)
      .where('organization_id', '=', organizationId)
      .execute();
  }

  async delete(organizationId: string, id: string): Promise<boolean> {
    const r = await this.db
      .deleteFrom('destination')
      .where('organization_id', '=', organizationId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  async find(organizationId: string, id: string): Promise<Destination | null> {
    const row = await this.db
      .selectFrom('destination')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? toDestination(row) : null;
  }

  /**
   * The destination, locked until the surrounding transaction ends so that no other change to it can commit in
   * between (PostgreSQL: FOR UPDATE, which also returns the latest committed row; SQLite: a no-op write takes the
   * database's write lock first, as BEGIN IMMEDIATE would).
   */
  async findForUpdate(organizationId: string, id: string): Promise<Destination | null> {
    if (this.dialect === 'postgres') {
      const row = await this.db
        .selectFrom('destination')
        .selectAll()
        .where('organization_id', '=', organizationId)
        .where('id', '=', id)
        .forUpdate()
        .executeTakeFirst();
      return row ? toDestination(row) : null;
    }
    await this.db
      .updateTable('destination')
      .set((eb) => ({ updated_at: eb.ref('updated_at') }))
      .where('organization_id', '=', organizationId)
      .where('id', '=', id)
      .execute();
    return this.find(organizationId, id);
  }

  async findAnywhere(id: string): Promise<Destination | null> {
    const row = await this.db.selectFrom('destination').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toDestination(row) : null;
  }

  async listByOrganization(organizationId: string, after?: string, limit = 10_000): Promise<Destination[]> {
    let q = this.db.selectFrom('destination').selectAll().where('organization_id', '=', organizationId);
    if (after) q = q.where('id', '>', after);
    const rows = await q.orderBy('id').limit(limit).execute();
    return rows.map(toDestination);
  }

  async existingIds(organizationId: string, ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('destination')
      .select('id')
      .where('organization_id', '=', organizationId)
      .where('id', 'in', [...ids])
      .execute();
    return new Set(rows.map((r) => r.id));
  }

  /**
   * `existingIds`, and the found rows cannot be deleted until the surrounding transaction ends (PostgreSQL:
   * FOR KEY SHARE, the lock a foreign key takes; on SQLite the transaction already holds the database).
   */
  async existingIdsLocked(organizationId: string, ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0 || this.dialect !== 'postgres') return this.existingIds(organizationId, ids);
    const rows = await this.db
      .selectFrom('destination')
      .select('id')
      .where('organization_id', '=', organizationId)
      .where('id', 'in', [...ids])
      .forKeyShare()
      .execute();
    return new Set(rows.map((r) => r.id));
  }

  /** Every attempt updates last success or last failure (and the re-authorisation flag). */
  async recordAttempt(
    id: string,
    attempt: AttemptRecord,
    statePatch: Record<string, unknown> | undefined,
  ): Promise<void> {
    let state: string | undefined;
    if (statePatch && Object.keys(statePatch).length > 0) {
      const row = await this.db.selectFrom('destination').select('state').where('id', '=', id).executeTakeFirst();
      if (row) state = toJson({ ...fromJson<Record<string, unknown>>(row.state), ...statePatch });
    }
    await this.db
      .updateTable('destination')
      .set({
        ...(attempt.ok
          ? { last_success_at: attempt.at }
          : {
              last_failure_at: attempt.at,
              last_failure_reason: attempt.reason.slice(0, 500),
              ...(attempt.needsReauthorization && { needs_reauthorization: 1 }),
            }),
        ...(state !== undefined && { state }),
      })
      .where('id', '=', id)
      .execute();
  }

  async insertSlackState(row: SlackInstallStateRow): Promise<void> {
    await this.db.insertInto('slack_install_state').values(row).execute();
  }

  /** Returns and deletes the state (single use). */
  async takeSlackState(stateHash: string): Promise<SlackInstallStateRow | null> {
    const row = await this.db
      .selectFrom('slack_install_state')
      .selectAll()
      .where('state_hash', '=', stateHash)
      .executeTakeFirst();
    if (!row) return null;
    const r = await this.db.deleteFrom('slack_install_state').where('state_hash', '=', stateHash).executeTakeFirst();
    return Number(r.numDeletedRows) > 0 ? row : null;
  }
}
