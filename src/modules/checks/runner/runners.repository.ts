import type { Database } from '../../../platform/db/index.ts';
import type { EngineTables, RunnerRow } from '../engine/engine.tables.ts';

export interface Runner {
  id: string;
  regionCode: string;
  name: string;
  createdAt: number;
  lastSeenAt: number | null;
  revokedAt: number | null;
}

function toRunner(r: RunnerRow): Runner {
  return {
    id: r.id,
    regionCode: r.region_code,
    name: r.name,
    createdAt: Number(r.created_at),
    lastSeenAt: r.last_seen_at === null ? null : Number(r.last_seen_at),
    revokedAt: r.revoked_at === null ? null : Number(r.revoked_at),
  };
}

/** `runner`: remote runners, their hashed tokens and last heartbeat. */
export class RunnersRepository {
  private readonly database: Database;
  constructor(database: Database) {
    this.database = database;
  }
  private get db() {
    return this.database.tables<EngineTables>();
  }

  async insert(row: RunnerRow): Promise<void> {
    await this.db.insertInto('runner').values(row).execute();
  }

  async findByTokenHash(hash: string): Promise<Runner | null> {
    const row = await this.db
      .selectFrom('runner')
      .selectAll()
      .where('token_hash', '=', hash)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return row ? toRunner(row) : null;
  }

  async touch(id: string, at: number): Promise<void> {
    await this.db.updateTable('runner').set({ last_seen_at: at }).where('id', '=', id).execute();
  }

  async list(): Promise<Runner[]> {
    const rows = await this.db.selectFrom('runner').selectAll().orderBy('id').execute();
    return rows.map(toRunner);
  }

  async revoke(id: string, at: number): Promise<boolean> {
    const r = await this.db
      .updateTable('runner')
      .set({ revoked_at: at })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }
}
