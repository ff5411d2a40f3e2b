/**
 * The outbox's SQL, pinned per dialect on a recording database (test/support): the append (in the caller's
 * transaction), the read after a position, and a consumer's position locked for its transaction (PostgreSQL:
 * `FOR UPDATE`; the alert dispatcher's fan-out). A run with SQLite only still sees a change to the PostgreSQL text; the
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
  it('consumer position: locked FOR UPDATE on PostgreSQL', async () => {
    const position = ({ sql }: { sql: string }) => (sql.startsWith('select') ? [{ last_seq: 0 }] : []);
    expect(
      await sqlPerDialect(
        (db) => new EventsService({ database: db, clock }).lockConsumerPosition(db, 'fanout'),
        position,
      ),
    ).toMatchInlineSnapshot(`
      {
        "postgres": [
          "insert into "event_consumer" ("name", "last_seq", "updated_at") values ($1, $2, $3) on conflict ("name") do nothing",
          "select "last_seq" from "event_consumer" where "name" = $1 for update",
        ],
        "sqlite": [
          "insert into "event_consumer" ("name", "last_seq", "updated_at") values (?, ?, ?) on conflict ("name") do nothing",
          "select "last_seq" from "event_consumer" where "name" = ?",
        ],
      }
    `);
  });
});
