import type { Database } from '../../platform/db/index.ts';
import type { BadgesTables, MonitorBadgeRow } from './badges.tables.ts';
import type { MonitorBadge } from './badge.types.ts';

function toBadge(row: MonitorBadgeRow): MonitorBadge {
  return {
    id: row.id,
    organizationId: row.organization_id,
    monitorId: row.monitor_id,
    token: row.token,
    createdAt: Number(row.created_at),
  };
}

export class BadgesRepository {
  private readonly db;
  constructor(database: Database) {
    this.db = database.tables<BadgesTables>();
  }

  async findByMonitor(organizationId: string, monitorId: string): Promise<MonitorBadge | null> {
    const row = await this.db
      .selectFrom('monitor_badge')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('monitor_id', '=', monitorId)
      .executeTakeFirst();
    return row ? toBadge(row) : null;
  }

  async findByToken(token: string): Promise<MonitorBadge | null> {
    const row = await this.db.selectFrom('monitor_badge').selectAll().where('token', '=', token).executeTakeFirst();
    return row ? toBadge(row) : null;
  }

  /**
   * Replaces the monitor's badge (a rotation) in one statement: the old token stops working with this transaction,
   * and two rotations at once both succeed, the later one winning (no unique-key error).
   */
  async replace(badge: MonitorBadge): Promise<void> {
    const row = {
      id: badge.id,
      organization_id: badge.organizationId,
      monitor_id: badge.monitorId,
      token: badge.token,
      created_at: badge.createdAt,
    };
    await this.db
      .insertInto('monitor_badge')
      .values(row)
      .onConflict((oc) =>
        oc.column('monitor_id').doUpdateSet({ id: row.id, token: row.token, created_at: row.created_at }),
      )
      .execute();
  }

  async delete(organizationId: string, monitorId: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('monitor_badge')
      .where('organization_id', '=', organizationId)
      .where('monitor_id', '=', monitorId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
