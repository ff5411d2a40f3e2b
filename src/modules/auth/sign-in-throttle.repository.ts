import type { Database } from '../../platform/db/index.ts';
import type { SessionsTables } from './sessions.tables.ts';

export class SignInThrottleRepository {
  private readonly db;
  constructor(database: Database) {
    this.db = database.tables<SessionsTables>();
  }

  /**
   * Counts one failure of `subject` atomically (failures older than `windowStart` are forgotten first) and returns
   * the new count with the block that was in force (the row stays locked until the transaction ends).
   */
  async addFailure(
    subject: string,
    now: number,
    windowStart: number,
  ): Promise<{ failures: number; blockedUntil: number }> {
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
      .returning(['failures', 'blocked_until'])
      .executeTakeFirstOrThrow();
    return { failures: Number(row.failures), blockedUntil: Number(row.blocked_until) };
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

  /** Takes one counted failure back (a right password); below `free` failures no block stays. */
  async takeBack(subject: string, free: number): Promise<void> {
    const row = await this.db
      .updateTable('sign_in_throttle')
      .set((eb) => ({ failures: eb('failures', '-', 1) }))
      .where('subject', '=', subject)
      .where('failures', '>', 0)
      .returning('failures')
      .executeTakeFirst();
    if (row && Number(row.failures) < free)
      await this.db.updateTable('sign_in_throttle').set({ blocked_until: 0 }).where('subject', '=', subject).execute();
  }
}
