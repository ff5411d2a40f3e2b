/**
 * The SQL of the delivery pipeline's hot path, pinned per dialect on a recording database (test/support): the
 * delivery claim (PostgreSQL: `FOR UPDATE SKIP LOCKED`, so concurrent workers never claim the same row); the
 * fan-out's consumer position is the events module's (events.repository.sql.test.ts). A run with SQLite only still sees a change to the
 * PostgreSQL text; the pipeline's tests run the statements on both databases.
 */
import { describe, expect, it } from 'vitest';
import { sqlPerDialect } from '../../../test/support/recording-database.ts';
import { DeliveriesRepository } from './deliveries.repository.ts';

describe('delivery SQL per dialect', () => {
  it('claim: FOR UPDATE SKIP LOCKED on PostgreSQL only', async () => {
    expect(await sqlPerDialect((db) => new DeliveriesRepository(db).claim('wrk_1', 1_000, 31_000, 20)))
      .toMatchInlineSnapshot(`
        {
          "postgres": [
            "UPDATE delivery SET status = 'in_flight', lease_owner = $1, lease_until = $2, attempts = attempts + 1, updated_at = $3 WHERE id IN ( SELECT d.id FROM delivery d WHERE ((d.status = 'pending' AND d.next_attempt_at <= $4) OR (d.status = 'in_flight' AND d.lease_until <= $5)) AND NOT EXISTS ( SELECT 1 FROM delivery e WHERE e.target_key = d.target_key AND e.monitor_id = d.monitor_id AND e.event_seq < d.event_seq AND e.status IN ('pending', 'in_flight', 'grouped')) ORDER BY d.next_attempt_at, d.event_seq LIMIT $6 FOR UPDATE SKIP LOCKED) RETURNING *",
          ],
          "sqlite": [
            "UPDATE delivery SET status = 'in_flight', lease_owner = ?, lease_until = ?, attempts = attempts + 1, updated_at = ? WHERE id IN ( SELECT d.id FROM delivery d WHERE ((d.status = 'pending' AND d.next_attempt_at <= ?) OR (d.status = 'in_flight' AND d.lease_until <= ?)) AND NOT EXISTS ( SELECT 1 FROM delivery e WHERE e.target_key = d.target_key AND e.monitor_id = d.monitor_id AND e.event_seq < d.event_seq AND e.status IN ('pending', 'in_flight', 'grouped')) ORDER BY d.next_attempt_at, d.event_seq LIMIT ? ) RETURNING *",
          ],
        }
      `);
  });
});
