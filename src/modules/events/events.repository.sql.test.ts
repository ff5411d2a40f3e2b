/**
 * The outbox's SQL, pinned per dialect on a recording database (test/support): the append (in the caller's
 * transaction) and the read after a position. A run with SQLite only still sees a change to the PostgreSQL text; the
 * events tests run the statements on both databases.
 */
import { describe, expect, it } from 'vitest';
import { sqlPerDialect } from '../../../test/support/recording-database.ts';
import { EventsService } from './events.service.ts';

const clock = { now: () => 1_000 };

describe('outbox SQL per dialect', () => {
  it('outbox: append in the caller transaction, read after a position', async () => {
    expect(
      await sqlPerDialect(async (db) => {
        const events = new EventsService({ database: db, clock });
        await db.transaction((tx) =>
          events.record(tx, {
            organizationId: 'org_1',
            type: 'down',
            monitorId: 'mon_1',
            incidentId: null,
            occurredAt: 1_000,
            payload: { cause: 'timeout' },
          }),
        );
        await events.readAfter(0, 100);
      }),
    ).toMatchInlineSnapshot(`
      {
        "postgres": [
          "insert into "domain_event" ("id", "organization_id", "type", "monitor_id", "incident_id", "occurred_at", "payload", "created_at") values ($1, $2, $3, $4, $5, $6, $7, $8)",
          "select * from "domain_event" where "seq" > $1 order by "seq" limit $2",
        ],
        "sqlite": [
          "insert into "domain_event" ("id", "organization_id", "type", "monitor_id", "incident_id", "occurred_at", "payload", "created_at") values (?, ?, ?, ?, ?, ?, ?, ?)",
          "select * from "domain_event" where "seq" > ? order by "seq" limit ?",
        ],
      }
    `);
  });
});
