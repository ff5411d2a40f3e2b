import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTocsin, ALL_MIGRATIONS, type Tocsin } from '../../src/main.ts';
import { migrateToLatest } from '../../src/platform/db/index.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { createTestApp, LogCapture, ManualClock, type TestApp, type TestOrg } from '../support/app.ts';
import { createTestDatabase, testDialects } from '../support/databases.ts';
import { api, createMonitor, WEBHOOKS } from './helpers.ts';

interface LinkTables {
  organization: {
    id: string;
    name: string;
    plan: string;
    default_region: string;
    created_at: number;
    updated_at: number;
  };
  monitor: Record<string, unknown> & { id: string; config: string };
  destination: Record<string, unknown> & { id: string };
  monitor_destination: { organization_id: string; monitor_id: string; destination_id: string; created_at: number };
}

const LINKS_MIGRATION = '202611231000_alerting_monitor_destination_links';

for (const dialect of testDialects()) {
  describe(`monitor ↔ destination links as rows (${dialect})`, () => {
    it('the migration moves config.alert_destination_ids into rows and removes the key from the stored config', async () => {
      const tdb = await createTestDatabase(dialect, { migrate: false });
      try {
        const { database } = tdb;
        await migrateToLatest(
          database,
          ALL_MIGRATIONS.filter((m) => m.name !== LINKS_MIGRATION),
        );
        const db = database.tables<LinkTables>();
        const now = Date.now();
        await db
          .insertInto('organization')
          .values({
            id: 'org_a',
            name: 'A',
            plan: 'enterprise',
            default_region: 'eu',
            created_at: now,
            updated_at: now,
          })
          .execute();
        const destination = (id: string) => ({
          id,
          organization_id: 'org_a',
          type: 'email',
          name: id,
          events: '["down"]',
          config: '{"address":"ops@example.com"}',
          sealed_secrets: null,
          payload_format: null,
          state: '{}',
          needs_reauthorization: 0,
          created_at: now,
          updated_at: now,
        });
        await db
          .insertInto('destination')
          .values([destination('dst_1'), destination('dst_2')])
          .execute();
        const monitor = (id: string, config: Record<string, unknown>) => ({
          id,
          organization_id: 'org_a',
          name: id,
          type: 'http',
          target: 'https://example.com',
          interval_seconds: 60,
          region_codes: '["eu"]',
          tags: '[]',
          environment: 'production',
          config: JSON.stringify(config),
          paused: 0,
          status: 'pending',
          status_changed_at: now,
          created_at: now,
          updated_at: now,
        });
        await db
          .insertInto('monitor')
          .values([
            monitor('mon_1', { method: 'GET', alert_destination_ids: ['dst_1', 'dst_2', 'dst_gone'] }),
            monitor('mon_2', { method: 'GET', alert_destination_ids: [] }),
            monitor('mon_3', { method: 'GET' }),
          ])
          .execute();

        expect(await migrateToLatest(database, ALL_MIGRATIONS)).toEqual([LINKS_MIGRATION]);

        const links = await db
          .selectFrom('monitor_destination')
          .select(['monitor_id', 'destination_id', 'organization_id'])
          .orderBy('destination_id')
          .execute();
        expect(links).toEqual([
          { monitor_id: 'mon_1', destination_id: 'dst_1', organization_id: 'org_a' },
          { monitor_id: 'mon_1', destination_id: 'dst_2', organization_id: 'org_a' },
        ]);
        const configs = await db.selectFrom('monitor').select(['id', 'config']).orderBy('id').execute();
        for (const c of configs) expect(JSON.parse(c.config)).toEqual({ method: 'GET' });
        // Deleting either side removes its links (foreign keys cascade).
        await db.deleteFrom('destination').where('id', '=', 'dst_1').execute();
        expect(await db.selectFrom('monitor_destination').select('destination_id').execute()).toEqual([
          { destination_id: 'dst_2' },
        ]);
        await db.deleteFrom('monitor').where('id', '=', 'mon_1').execute();
        expect(await db.selectFrom('monitor_destination').selectAll().execute()).toEqual([]);
      } finally {
        await tdb.drop();
      }
    });

    describe('over HTTP', () => {
      let t: TestApp;
      let second: Tocsin;
      let org: TestOrg;

      beforeAll(async () => {
        const clock = new ManualClock(Date.now());
        t = await createTestApp({ dialect, clock });
        // A second app instance on the same database, as a second process would be (its own handle and pool).
        second = await createTocsin(t.config, {
          clock,
          migrate: false,
          background: false,
          logger: createLogger({ level: 'warn', pretty: false, destination: new LogCapture() }),
        });
        org = await t.createOrg();
      });
      afterAll(async () => {
        await second.close();
        await t.close();
      });

      it('20 destinations created at once, each attaching the same monitor, through two app instances → 20 links', async () => {
        const monitorId = await createMonitor(t, org.apiKey);
        const created = await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            (i % 2 === 0 ? t.tocsin.app : second.app).inject({
              method: 'POST',
              url: WEBHOOKS,
              headers: { authorization: `Bearer ${org.apiKey}`, 'content-type': 'application/json' },
              payload: JSON.stringify({
                type: 'email',
                name: `Team ${i}`,
                config: { address: `team${i}@example.com` },
                monitor_ids: [monitorId],
              }),
            }),
          ),
        );
        expect(created.map((r) => r.statusCode)).toEqual(Array(20).fill(201));
        const ids = created.map((r) => (r.json() as { id: string }).id).sort();
        const monitor = await api(t, org.apiKey, 'GET', `/api/v1/monitors/${monitorId}`);
        expect([...monitor.body.config.alert_destination_ids].sort()).toEqual(ids);
      });

      it('concurrent detaches and attaches from both sides lose nothing', async () => {
        const dst = (
          await api(t, org.apiKey, 'POST', WEBHOOKS, { type: 'email', config: { address: 'x@example.com' } })
        ).body.id as string;
        const monitors = await Promise.all(Array.from({ length: 10 }, () => createMonitor(t, org.apiKey)));
        // Each monitor attaches the destination from its own side, on alternating instances, all at once.
        const results = await Promise.all(
          monitors.map((id, i) =>
            (i % 2 === 0 ? t.tocsin.app : second.app).inject({
              method: 'PATCH',
              url: `/api/v1/monitors/${id}`,
              headers: { authorization: `Bearer ${org.apiKey}`, 'content-type': 'application/json' },
              payload: JSON.stringify({ config: { alert_destination_ids: [dst] } }),
            }),
          ),
        );
        expect(results.map((r) => r.statusCode)).toEqual(Array(10).fill(200));
        const read = await api(t, org.apiKey, 'GET', `${WEBHOOKS}/${dst}`);
        expect([...read.body.monitor_ids].sort()).toEqual([...monitors].sort());
      });
    });
  });
}
