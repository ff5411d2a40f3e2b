import type { Database } from '../../platform/db/index.ts';
import type { SessionsTables } from './sessions.tables.ts';

export class SignInThrottleRepository {
  private readonly db;
  constructor(database: Database) {
    this.db = database.tables<SessionsTables>();
  }

  /** The latest end of a block among `subjects` (0 when none is blocked). */
  async blockedUntil(subjects: string[]): Promise<number> {
    const rows = await this.db
      .selectFrom('sign_in_throttle')
      .select('blocked_until')
      .where('subject', 'in', subjects)
      .execute();
    return rows.reduce((max, r) => Math.max(max, Number(r.blocked_until)), 0);
  }

  /**
   * Counts one failure of `subject` atomically (failures older than `windowStart` are forgotten first) and
   * returns the new count.
   */
  async addFailure(subject: string, now: number, windowStart: number): Promise<number> {
    const row = await this.db
      .insertInto('sign_in_throttle')
      .values({ subject, failures: 1, last_failure_at: now, blocked_until: 0 })
      .onConflict((oc) =>
        oc.column('subject').doUpdateSet((eb) => ({
          failures: eb
            .case()
            .when('sign_in_throttle.last_failure_at', '<', windowStart)
            .then(1)
            .else(eb('sign_in_throttle.failures', '+', 1))
            .end(),
          last_failure_at: now,
        })),
      )
      .returning('failures')
      .executeTakeFirstOrThrow();
    return Number(row.failures);
  }

  async block(subject: string, until: number): Promise<void> {
    await this.db
      .updateTable('sign_in_throttle')
      .set({ blocked_until: until })
      .where('subject', '=', subject)
      .execute();
  }

  async clear(subject: string): Promise<void> {
    await this.db.deleteFrom('sign_in_throttle').where('subject', '=', subject).execute();
  }
}
