import type { Database } from '../../../platform/db/index.ts';
import type { EngineTables } from '../engine/engine.tables.ts';

/** `heartbeat_ping`: the last push each heartbeat monitor received. */
export class HeartbeatsRepository {
  private readonly database: Database;
  constructor(database: Database) {
    this.database = database;
  }

  private get db() {
    return this.database.tables<EngineTables>();
  }

  async recordPing(monitorId: string, at: number): Promise<void> {
    await this.db
      .insertInto('heartbeat_ping')
      .values({ monitor_id: monitorId, last_ping_at: at, pings: 1 })
      .onConflict((oc) =>
        oc.column('monitor_id').doUpdateSet((eb) => ({ last_ping_at: at, pings: eb('heartbeat_ping.pings', '+', 1) })),
      )
      .execute();
  }

  async lastPings(monitorIds: readonly string[]): Promise<Map<string, number>> {
    if (monitorIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('heartbeat_ping')
      .select(['monitor_id', 'last_ping_at'])
      .where('monitor_id', 'in', [...monitorIds])
      .execute();
    return new Map(rows.map((r) => [r.monitor_id, Number(r.last_ping_at)]));
  }
}
