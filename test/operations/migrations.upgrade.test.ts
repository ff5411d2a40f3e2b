/**
 * Upgrades from every earlier schema. Migrations run in name order (YYYYMMDDHHMM_…), so the schema of every
 * earlier release is a prefix of the sorted list. One database is migrated step by step, once, and after each step
 * filled with representative rows written as that step's schema has them (raw SQL, the way the code of that time
 * stored them). For each prefix, a copy of it at that step is upgraded: Tocsin starts on it (running the remaining
 * migrations on every earlier step's rows) and the rows of the step filled last are read back through the API and the
 * services; after the upgrade from the last step, every step's rows are (stepsReadBack). On SQLite and PostgreSQL.
 *
 * A new migration needs an entry in FIXTURES (rows for the tables it creates or changes, and how they read after
 * an upgrade); the first test fails until it has one.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.ts';
import { ALL_MIGRATIONS, createTocsin, type Tocsin } from '../../src/main.ts';
import { generateApiKey, hashApiKey, hashPassword, SCOPES } from '../../src/modules/auth/index.ts';
import { ManualClock } from '../../src/platform/clock.ts';
import {
  backupSqlite,
  migrateToLatest,
  openDatabase,
  type Database,
  type Dialect,
} from '../../src/platform/db/index.ts';
import { newId } from '../../src/platform/ids.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { createTestDatabase, testDialects } from '../support/databases.ts';
import { adminQuery } from '../support/templates.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies and rows of historical schemas
type AnyDb = Kysely<any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- tables as an earlier schema had them

const NOW = Date.parse('2026-11-23T12:00:00.000Z');
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const STEPS = [...ALL_MIGRATIONS].sort((a, b) => a.name.localeCompare(b.name));

/** Ids and secrets of the rows the fixtures write (the same in every database). */
const W = {
  orgId: newId('org', NOW - 30 * DAY),
  userId: newId('usr', NOW - 30 * DAY),
  email: 'owner@upgrade.example.com',
  keyId: newId('key', NOW - 29 * DAY),
  rawKey: generateApiKey(),
  monitorId: newId('mon', NOW - 28 * DAY),
  secondMonitorId: newId('mon', NOW - 28 * DAY + 1),
  eventId: newId('evt', NOW - 27 * DAY),
  incidentId: newId('inc', NOW - 27 * DAY),
  statusPageId: newId('stp', NOW - 26 * DAY),
  slug: 'upgrade-status',
  serviceAccountId: newId('sac', NOW - 25 * DAY),
  verificationToken: 'verification-token-from-an-old-release',
  destinationId: newId('dst', NOW - 20 * DAY),
  secondDestinationId: newId('dst', NOW - 20 * DAY + 1),
  deliveryId: newId('dlv', NOW - 20 * DAY),
  runnerId: newId('run', NOW - 19 * DAY),
  idempotencyKey: 'upgrade-idem-key',
  slaTargetId: newId('sla', NOW - 2 * DAY),
  invitationId: newId('inv', NOW - DAY),
  invitationToken: 'invitation-token-from-an-old-release',
  password: 'password from an old release',
  resetToken: 'reset-token-from-an-old-release',
  sessionToken: 'session-token-from-an-old-release',
  sessionId: newId('ses', NOW - DAY),
  customReportId: newId('crp', NOW - DAY),
};
const ms = (daysAgo: number) => NOW - daysAgo * DAY;
const json = (v: unknown) => JSON.stringify(v);
const sha256 = (v: string) => createHash('sha256').update(v).digest('hex');

/** Tocsin started on the upgraded database, with a fresh owner key for the organization of the fixtures. */
interface Upgraded {
  tocsin: Tocsin;
  dialect: Dialect;
  raw: AnyDb;
  call(method: string, url: string, body?: unknown, key?: string, headers?: Record<string, string>): Promise<Json>;
}

interface StepFixture {
  /** Writes rows into the tables the migration created or changed, as its schema has them. */
  fill(db: AnyDb, dialect: Dialect): Promise<void>;
  /** After the upgrade to the latest schema: the rows read through the API and the services. */
  check(u: Upgraded): Promise<void>;
}

/** The closed UTC day the day-prefix fixtures fill (5 days ago), with the first monitor and region keys. */
async function prefixDay(db: AnyDb): Promise<{ mk: number; rk: number; day: number }> {
  const mk = (await db.selectFrom('monitor_key').select('id').executeTakeFirstOrThrow()).id as number;
  const rk = (await db.selectFrom('region_key').select('id').executeTakeFirstOrThrow()).id as number;
  return { mk, rk, day: ms(5) - (ms(5) % DAY) };
}

/** That day read as a New York day: the daily row less the first five hours (prefix 5), 190 checks. */
async function checkPrefixDay(u: Upgraded): Promise<void> {
  const day = ms(5) - (ms(5) % DAY);
  const from = new Date(day + 5 * HOUR).toISOString();
  const to = new Date(day + 29 * HOUR).toISOString();
  const r = await u.call(
    'GET',
    `/api/v1/reports/performance?from=${from}&to=${to}&timezone=America/New_York&monitor_ids=${W.monitorId}`,
  );
  expect(r.status).toBe(200);
  expect(r.body.monitors[0]).toMatchObject({ monitor_id: W.monitorId, checks: 190 });
}

const FIXTURES: Record<string, StepFixture> = {
  '202611220001_orgs_init': {
    async fill(db) {
      await db
        .insertInto('organization')
        .values({
          id: W.orgId,
          name: 'Upgraded Org',
          plan: 'enterprise',
          default_region: 'local',
          email_alerts_enabled: 1,
          created_at: ms(30),
          updated_at: ms(30),
        })
        .execute();
      await db
        .insertInto('app_user')
        .values({ id: W.userId, email: W.email, name: 'Owner', email_verified_at: null, created_at: ms(30) })
        .execute();
      await db
        .insertInto('membership')
        .values({ organization_id: W.orgId, user_id: W.userId, role: 'owner', created_at: ms(30) })
        .execute();
    },
    async check(u) {
      const org = await u.call('GET', '/api/v1/auth/organization');
      expect(org).toMatchObject({ status: 200, body: { id: W.orgId, name: 'Upgraded Org', plan: 'enterprise' } });
      const members = await u.call('GET', '/api/v1/auth/organization/members');
      expect(members.status).toBe(200);
      expect(members.body.data).toEqual(
        expect.arrayContaining([expect.objectContaining({ user_id: W.userId, email: W.email, role: 'owner' })]),
      );
    },
  },
  '202611220002_auth_api_keys': {
    async fill(db) {
      await db
        .insertInto('api_key')
        .values({
          id: W.keyId,
          organization_id: W.orgId,
          name: 'old key',
          prefix: W.rawKey.slice(0, 12),
          hash: hashApiKey(W.rawKey),
          previous_hash: null,
          previous_valid_until: null,
          scopes: json([...SCOPES]),
          environments: json(['production', 'staging', 'development']),
          expires_at: null,
          read_per_minute: 600,
          write_per_minute: 120,
          delete_per_minute: 60,
          created_by: W.userId,
          user_id: W.userId,
          service_account_id: null,
          last_used_at: null,
          revoked_at: null,
          created_at: ms(29),
          updated_at: ms(29),
        })
        .execute();
    },
    async check(u) {
      // The key made before the upgrade still authenticates.
      expect((await u.call('GET', '/api/v1/monitors', undefined, W.rawKey)).status).toBe(200);
      const key = await u.call('GET', `/api/v1/api-keys/${W.keyId}`);
      expect(key).toMatchObject({ status: 200, body: { id: W.keyId, name: 'old key' } });
    },
  },
  '202611220003_monitors_init': {
    async fill(db) {
      for (const [id, name] of [
        [W.monitorId, 'Checkout'],
        [W.secondMonitorId, 'Search'],
      ] as const) {
        await db
          .insertInto('monitor')
          .values({
            id,
            organization_id: W.orgId,
            name,
            type: 'http',
            target: `https://${name.toLowerCase()}.example.com/health`,
            interval_seconds: 60,
            region_codes: json(['local']),
            tags: json(['team:web']),
            environment: 'production',
            config: json({ method: 'GET', timeout_seconds: 10, failure_threshold: 2 }),
            paused: 0,
            status: 'up',
            status_changed_at: ms(28),
            last_checked_at: ms(1),
            heartbeat_token: null,
            created_at: ms(28),
            updated_at: ms(28),
          })
          .execute();
      }
    },
    async check(u) {
      const m = await u.call('GET', `/api/v1/monitors/${W.monitorId}`);
      expect(m).toMatchObject({
        status: 200,
        body: {
          id: W.monitorId,
          name: 'Checkout',
          type: 'http',
          target: 'https://checkout.example.com/health',
          interval_seconds: 60,
          tags: ['team:web'],
          environment: 'production',
        },
      });
      expect(m.body.config).toMatchObject({ method: 'GET', timeout_seconds: 10, failure_threshold: 2 });
      const list = await u.call('GET', '/api/v1/monitors?limit=100');
      expect(list.body.data.map((x: Json) => x.id).sort()).toEqual([W.monitorId, W.secondMonitorId].sort());
    },
  },
  '202611220004_events_outbox': {
    async fill(db) {
      await db
        .insertInto('domain_event')
        .values({
          id: W.eventId,
          organization_id: W.orgId,
          type: 'down',
          monitor_id: W.monitorId,
          incident_id: null,
          occurred_at: ms(27),
          payload: json({ cause: 'HTTP 503', monitor_name: 'Checkout' }),
          created_at: ms(27),
        })
        .execute();
      await db
        .insertInto('event_consumer')
        .values({ name: 'alerting', last_seq: 1, updated_at: ms(27) })
        .execute();
    },
    async check(u) {
      const events = await u.tocsin.services.events.readAfter(0, 100);
      expect(events).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ id: W.eventId, type: 'down', monitorId: W.monitorId, payload: expect.any(Object) }),
        ]),
      );
      expect(await u.tocsin.services.events.consumerPosition('alerting')).toBe(1);
    },
  },
  '202611220010_incidents_init': {
    async fill(db) {
      await db
        .insertInto('incident')
        .values({
          id: W.incidentId,
          organization_id: W.orgId,
          number: 1,
          title: 'Checkout is down',
          source: 'monitor',
          monitor_id: W.monitorId,
          cause: 'HTTP 503',
          status: 'resolved',
          opened_at: ms(27),
          acknowledged_at: null,
          acknowledged_by: null,
          resolved_at: ms(27) + 600_000,
          resolved_by: 'auto',
          last_reminder_at: null,
          created_at: ms(27),
          updated_at: ms(27) + 600_000,
        })
        .execute();
      await db
        .insertInto('incident_event')
        .values([
          {
            incident_id: W.incidentId,
            organization_id: W.orgId,
            type: 'opened',
            at: ms(27),
            actor: null,
            message: null,
          },
          {
            incident_id: W.incidentId,
            organization_id: W.orgId,
            type: 'resolved',
            at: ms(27) + 600_000,
            actor: 'auto',
            message: null,
          },
        ])
        .execute();
      await db.insertInto('incident_counter').values({ organization_id: W.orgId, last_number: 1 }).execute();
    },
    async check(u) {
      const inc = await u.call('GET', `/api/v1/incidents/${W.incidentId}`);
      expect(inc).toMatchObject({
        status: 200,
        body: { id: W.incidentId, number: 1, title: 'Checkout is down', status: 'resolved', monitor_id: W.monitorId },
      });
      expect(inc.body.timeline.length).toBeGreaterThanOrEqual(2);
      // Numbering goes on from the stored counter.
      const created = await u.call('POST', '/api/v1/incidents', { title: 'After the upgrade' });
      expect(created).toMatchObject({ status: 201, body: { number: 2 } });
    },
  },
  '202611220011_status_pages_init': {
    async fill(db) {
      await db
        .insertInto('status_page')
        .values({
          id: W.statusPageId,
          organization_id: W.orgId,
          slug: W.slug,
          title: 'Upgrade status',
          monitor_ids: json([W.monitorId]),
          public: 1,
          created_at: ms(26),
          updated_at: ms(26),
        })
        .execute();
    },
    async check(u) {
      const page = await u.call('GET', `/api/v1/status-pages/${W.statusPageId}`);
      expect(page).toMatchObject({ status: 200, body: { slug: W.slug, title: 'Upgrade status' } });
      const publicView = await u.tocsin.app.inject({ method: 'GET', url: `/status/${W.slug}.json` });
      expect(publicView.statusCode).toBe(200);
      expect((publicView.json() as Json).monitors).toHaveLength(1);
    },
  },
  '202611220100_auth_service_accounts': {
    async fill(db) {
      await db
        .insertInto('service_account')
        .values({
          id: W.serviceAccountId,
          organization_id: W.orgId,
          name: 'ci',
          role: 'member',
          created_by: W.userId,
          created_at: ms(25),
          deleted_at: null,
        })
        .execute();
    },
    async check(u) {
      const sa = await u.call('GET', `/api/v1/service-accounts/${W.serviceAccountId}`);
      expect(sa).toMatchObject({ status: 200, body: { id: W.serviceAccountId, name: 'ci', role: 'member' } });
    },
  },
  '202611220101_auth_idempotency_keys': {
    async fill(db) {
      await db
        .insertInto('idempotency_key')
        .values({
          id: 'idk_old_release_row',
          organization_id: W.orgId,
          key: W.idempotencyKey,
          method: 'POST',
          path: '/api/v1/incidents',
          body_hash: sha256('{"title":"old"}'),
          state: 'completed',
          status: 201,
          response_body: json({ id: 'inc_old', title: 'old' }),
          response_headers: json({ 'content-type': 'application/json; charset=utf-8' }),
          created_at: NOW - HOUR,
          expires_at: NOW + 23 * HOUR,
        })
        .execute();
    },
    async check(u) {
      // Rows of the organization-wide scheme are not attributable to a key (the per-key migration drops them):
      // the key is free for a new request, which runs instead of replaying another key's response.
      const fresh = await u.call('POST', '/api/v1/incidents', { title: 'new' }, undefined, {
        'idempotency-key': W.idempotencyKey,
      });
      expect(fresh.status).toBe(201);
      expect(fresh.headers['idempotent-replayed']).toBeUndefined();
      expect(fresh.body.title).toBe('new');
    },
  },
  '202611220102_auth_key_usage': {
    async fill(db) {
      await db
        .insertInto('api_key_usage')
        .values({
          key_id: W.keyId,
          organization_id: W.orgId,
          minute: ms(2) - (ms(2) % 60_000),
          read_count: 7,
          write_count: 2,
          delete_count: 1,
          status_2xx: 9,
          status_3xx: 0,
          status_4xx: 1,
          status_5xx: 0,
        })
        .execute();
    },
    async check(u) {
      const from = new Date(ms(3)).toISOString();
      const to = new Date(NOW).toISOString();
      const usage = await u.call('GET', `/api/v1/api-keys/${W.keyId}/usage?from=${from}&to=${to}`);
      expect(usage.status).toBe(200);
      expect(JSON.stringify(usage.body)).toMatch(/"read":7|"read_count":7|"reads":7/);
    },
  },
  '202611220200_orgs_email_verification': {
    async fill(db) {
      await db
        .insertInto('email_verification')
        .values({
          token_hash: sha256(W.verificationToken),
          user_id: W.userId,
          expires_at: NOW + 10 * DAY,
          used_at: null,
          created_at: ms(1),
        })
        .execute();
    },
    async check(u) {
      const res = await u.tocsin.app.inject({
        method: 'GET',
        url: `/verify-email?token=${W.verificationToken}`,
      });
      expect(res.statusCode).toBe(200);
      expect((await u.tocsin.services.orgs.findUser(W.userId))?.emailVerifiedAt).not.toBeNull();
    },
  },
  '202611220300_alerting_destinations_deliveries': {
    async fill(db) {
      for (const [id, name] of [
        [W.destinationId, 'Ops hook'],
        [W.secondDestinationId, 'Second hook'],
      ] as const) {
        await db
          .insertInto('destination')
          .values({
            id,
            organization_id: W.orgId,
            type: 'generic_webhook',
            name,
            events: json(['down', 'recovered']),
            config: json({ url: `https://hooks.example.com/${name.replace(' ', '-')}` }),
            sealed_secrets: null,
            payload_format: 'standard',
            state: json({}),
            last_success_at: ms(20),
            last_failure_at: null,
            last_failure_reason: null,
            needs_reauthorization: 0,
            created_at: ms(20),
            updated_at: ms(20),
          })
          .execute();
      }
      // At this step the monitor ↔ destination links lived in the monitor's config.
      const m = await db.selectFrom('monitor').select('config').where('id', '=', W.monitorId).executeTakeFirst();
      if (m) {
        await db
          .updateTable('monitor')
          .set({
            config: json({ ...JSON.parse(m.config as string), alert_destination_ids: [W.destinationId, 'dst_gone'] }),
          })
          .where('id', '=', W.monitorId)
          .execute();
      }
      await db
        .insertInto('delivery')
        .values({
          id: W.deliveryId,
          organization_id: W.orgId,
          destination_id: W.destinationId,
          member_user_id: null,
          member_email: null,
          target_key: W.destinationId,
          event_id: W.eventId,
          event_seq: 1,
          event_type: 'down',
          monitor_id: W.monitorId,
          event_snapshot: json({ type: 'down', monitor: { id: W.monitorId, name: 'Checkout' } }),
          status: 'delivered',
          attempts: 1,
          next_attempt_at: ms(20),
          lease_owner: null,
          lease_until: null,
          last_error: null,
          provider_reference: null,
          created_at: ms(20),
          updated_at: ms(20),
          delivered_at: ms(20),
        })
        .execute();
      await db
        .insertInto('slack_install_state')
        .values({
          state_hash: sha256('old-state'),
          organization_id: W.orgId,
          destination_id: null,
          name: 'old install',
          expires_at: ms(20) + HOUR,
          created_at: ms(20),
        })
        .execute();
    },
    async check(u) {
      const d = await u.call('GET', `/api/v1/auth/organization/webhooks/${W.destinationId}`);
      expect(d).toMatchObject({
        status: 200,
        body: { id: W.destinationId, name: 'Ops hook', type: 'generic_webhook' },
      });
      // The link kept in the monitor's config at that time is a link now (the unknown id is dropped).
      const m = await u.call('GET', `/api/v1/monitors/${W.monitorId}`);
      expect(m.body.config.alert_destination_ids).toEqual([W.destinationId]);
      expect(d.body.monitor_ids).toContain(W.monitorId);
      const deliveries = await u.raw.selectFrom('delivery').selectAll().where('id', '=', W.deliveryId).execute();
      expect(deliveries).toMatchObject([{ status: 'delivered', destination_id: W.destinationId }]);
    },
  },
  '202611230001_checks_engine': {
    async fill(db) {
      await db
        .insertInto('check_schedule')
        .values({
          monitor_id: W.monitorId,
          region_code: 'local',
          organization_id: W.orgId,
          interval_ms: 60_000,
          phase_ms: 1234,
          next_due_at: NOW + 60_000,
          lease_owner: null,
          lease_until: null,
          monitor_version: ms(28),
        })
        .execute();
      await db
        .insertInto('check_state')
        .values({
          monitor_id: W.monitorId,
          region_code: 'local',
          successes: 5,
          failures: 0,
          last_at: ms(1),
          last_status: 'up',
          last_cause: null,
        })
        .execute();
      await db
        .insertInto('monitor_status_change')
        .values({
          id: `${W.monitorId}@${ms(27)}`,
          organization_id: W.orgId,
          monitor_id: W.monitorId,
          from_status: 'up',
          to_status: 'down',
          at: ms(27),
          cause: 'HTTP 503',
          execution_id: null,
        })
        .execute();
      await db.insertInto('check_cert_notice').values({ monitor_id: W.monitorId, last_day: 20_000 }).execute();
      await db
        .insertInto('runner')
        .values({
          id: W.runnerId,
          region_code: 'local',
          name: 'old runner',
          token_hash: sha256('trn_old'),
          created_at: ms(19),
          last_seen_at: ms(1),
          revoked_at: null,
        })
        .execute();
    },
    async check(u) {
      const regions = await u.call('GET', '/api/v1/regions');
      expect(regions.status).toBe(200);
      const schedule = await u.raw
        .selectFrom('check_schedule')
        .selectAll()
        .where('monitor_id', '=', W.monitorId)
        .execute();
      expect(schedule).toHaveLength(1);
      // The status change of that time lives on where it is read: the reports timeline's verdict (202611232120 filled
      // it from the status-change log, which 202611290400 dropped).
      const verdicts = await u.raw
        .selectFrom('monitor_timeline')
        .select(['kind', 'at'])
        .where('monitor_id', '=', W.monitorId)
        .where('kind', '=', 'down')
        .execute();
      expect(verdicts.map((v) => Number(v.at))).toContain(ms(27));
      expect(await u.raw.selectFrom('runner').select('id').execute()).toEqual([{ id: W.runnerId }]);
    },
  },
  '202611230001_executions_init': {
    async fill(db, dialect) {
      await db.insertInto('monitor_key').values({ monitor_id: W.monitorId, organization_id: W.orgId }).execute();
      await db.insertInto('region_key').values({ code: 'local' }).execute();
      const mk = (await db.selectFrom('monitor_key').select('id').executeTakeFirstOrThrow()).id as number;
      const rk = (await db.selectFrom('region_key').select('id').executeTakeFirstOrThrow()).id as number;
      expect(dialect === 'sqlite' || dialect === 'postgres').toBe(true);
      await db
        .insertInto('execution')
        .values({
          monitor_key: mk,
          region_key: rk,
          started_at: ms(1),
          down: 0,
          duration_ms: 87,
          dns_ms: 3,
          connect_ms: 10,
          tls_ms: 20,
          ttfb_ms: 50,
          download_ms: 4,
          total_ms: null,
          http_status: 200,
          shape_key: null,
          detail: null,
        })
        .execute();
      await db
        .insertInto('execution_series')
        .values({ monitor_key: mk, region_key: rk, last_started_at: ms(1), last_down: 0, last_gap_ms: null })
        .execute();
    },
    async check(u) {
      const list = await u.call('GET', `/api/v1/monitors/${W.monitorId}/executions`);
      expect(list.status).toBe(200);
      expect(list.body.data).toHaveLength(1);
      expect(list.body.data[0]).toMatchObject({
        status: 'up',
        http_status: 200,
        duration_ms: 87,
        region_code: 'local',
      });
    },
  },
  '202611230002_rollups_init': {
    async fill(db) {
      const mk = (await db.selectFrom('monitor_key').select('id').executeTakeFirstOrThrow()).id as number;
      const rk = (await db.selectFrom('region_key').select('id').executeTakeFirstOrThrow()).id as number;
      const hour = ms(2) - (ms(2) % HOUR);
      await db
        .insertInto('execution_rollup')
        .values({
          monitor_key: mk,
          hour_start: hour,
          region_key: rk,
          checks: 60,
          failures: 3,
          downtime_ms: 120_000,
          sketch: null,
        })
        .execute();
    },
    async check(u) {
      const from = new Date(ms(3)).toISOString();
      const to = new Date(ms(1)).toISOString();
      const h = await u.call('GET', `/api/v1/monitors/${W.monitorId}/history?resolution=hour&from=${from}&to=${to}`);
      expect(h.status).toBe(200);
      const buckets = h.body.data as Json[];
      expect(buckets.reduce((n, b) => n + (b.checks as number), 0)).toBe(60);
      expect(buckets.reduce((n, b) => n + (b.failures as number), 0)).toBe(3);
    },
  },
  '202611230003_rollups_daily': {
    async fill(db) {
      const mk = (await db.selectFrom('monitor_key').select('id').executeTakeFirstOrThrow()).id as number;
      const rk = (await db.selectFrom('region_key').select('id').executeTakeFirstOrThrow()).id as number;
      const day = ms(10) - (ms(10) % DAY);
      await db
        .insertInto('execution_rollup_day')
        .values({
          monitor_key: mk,
          hour_start: day,
          region_key: rk,
          checks: 1440,
          failures: 0,
          downtime_ms: 0,
          sketch: null,
        })
        .execute();
    },
    async check(u) {
      const from = new Date(ms(12)).toISOString();
      const to = new Date(ms(8)).toISOString();
      const h = await u.call('GET', `/api/v1/monitors/${W.monitorId}/history?resolution=day&from=${from}&to=${to}`);
      expect(h.status).toBe(200);
      expect((h.body.data as Json[]).reduce((n, b) => n + (b.checks as number), 0)).toBe(1440);
    },
  },
  '202611231000_alerting_monitor_destination_links': {
    async fill(db) {
      await db
        .insertInto('monitor_destination')
        .values({
          organization_id: W.orgId,
          monitor_id: W.secondMonitorId,
          destination_id: W.secondDestinationId,
          created_at: ms(5),
        })
        .execute();
    },
    async check(u) {
      const d = await u.call('GET', `/api/v1/auth/organization/webhooks/${W.secondDestinationId}`);
      expect(d.body.monitor_ids).toEqual([W.secondMonitorId]);
      const m = await u.call('GET', `/api/v1/monitors/${W.secondMonitorId}`);
      expect(m.body.config.alert_destination_ids).toEqual([W.secondDestinationId]);
    },
  },
  '202611232040_auth_idempotency_per_key': {
    async fill(db) {
      await db
        .insertInto('idempotency_key')
        .values({
          id: 'idk_per_key_row',
          organization_id: W.orgId,
          api_key_id: W.keyId,
          key: 'per-key-idem',
          method: 'POST',
          path: '/api/v1/incidents',
          body_hash: sha256('{"title":"stored"}'),
          state: 'completed',
          status: 201,
          response_body: json({ id: 'inc_stored', title: 'stored' }),
          response_headers: json({ 'content-type': 'application/json; charset=utf-8' }),
          created_at: NOW - HOUR,
          expires_at: NOW + 23 * HOUR,
        })
        .execute();
    },
    async check(u) {
      // The stored record is read: the same key with another body is a mismatch, not a new request.
      const other = await u.call('POST', '/api/v1/incidents', { title: 'different' }, W.rawKey, {
        'idempotency-key': 'per-key-idem',
      });
      expect(other.status).toBe(422);
      expect(other.body.error.code).toBe('idempotency_key_mismatch');
    },
  },
  '202611232110_checks_failing_since': {
    async fill(db) {
      await db
        .insertInto('check_state')
        .values({
          monitor_id: W.secondMonitorId,
          region_code: 'local',
          successes: 0,
          failures: 2,
          last_at: ms(1),
          last_status: 'down',
          last_cause: 'timeout',
          failing_since: ms(1) - 60_000,
        })
        .execute();
    },
    async check(u) {
      const rows = await u.raw
        .selectFrom('check_state')
        .selectAll()
        .where('monitor_id', '=', W.secondMonitorId)
        .execute();
      expect(rows).toMatchObject([{ failures: 2, last_status: 'down', failing_since: ms(1) - 60_000 }]);
    },
  },
  '202611232120_reports_init': {
    async fill(db) {
      await db
        .insertInto('sla_target')
        .values({
          id: W.slaTargetId,
          organization_id: W.orgId,
          name: 'Upgraded SLA',
          monitor_ids: json([W.monitorId]),
          target_percent: 99.9,
          period: 'monthly',
          created_at: ms(2),
          updated_at: ms(2),
        })
        .execute();
    },
    async check(u) {
      const target = await u.call('GET', `/api/v1/sla-targets/${W.slaTargetId}`);
      expect(target.status).toBe(200);
      expect(target.body).toMatchObject({ name: 'Upgraded SLA', monitor_ids: [W.monitorId], target_percent: 99.9 });
      // Monitors that existed before the reports module are in its tables (filled by the migration from `monitor`).
      const report = await u.call('GET', `/api/v1/reports/availability?period=last_90_days&monitor_ids=${W.monitorId}`);
      expect(report.status).toBe(200);
      expect(report.body.monitors[0].monitor_id).toBe(W.monitorId);
      const sla = await u.call('GET', '/api/v1/reports/sla');
      expect(sla.status).toBe(200);
      expect(sla.body.targets.map((t: Json) => t.sla_target_id)).toEqual([W.slaTargetId]);
    },
  },
  '202611232100_intelligence_init': {
    async fill(db) {
      await db
        .insertInto('intelligence_event')
        .values({
          id: 'ine_upgrade_row',
          organization_id: W.orgId,
          monitor_id: W.monitorId,
          region_code: 'local',
          category: 'performance',
          kind: 'latency_regression',
          severity: 'warning',
          summary: 'p95 latency doubled',
          before: json({ p95_ms: 120 }),
          after: json({ p95_ms: 250 }),
          started_at: ms(3),
          ended_at: null,
          incident_id: null,
          open_key: null,
          created_at: ms(3),
        })
        .execute();
    },
    async check(u) {
      const rows = await u.raw.selectFrom('intelligence_event').selectAll().execute();
      expect(rows).toMatchObject([{ id: 'ine_upgrade_row', monitor_id: W.monitorId, kind: 'latency_regression' }]);
    },
  },
  '202611232140_intelligence_correlation_inputs': {
    async fill(db) {
      await db
        .insertInto('intelligence_attributes')
        .values({
          monitor_id: W.monitorId,
          region_code: 'local',
          organization_id: W.orgId,
          attributes: json({ addresses: ['203.0.113.7'], cdn: 'cloudfront' }),
          updated_at: ms(4),
        })
        .execute();
    },
    async check(u) {
      const rows = await u.raw.selectFrom('intelligence_attributes').selectAll().execute();
      expect(rows).toMatchObject([{ monitor_id: W.monitorId, region_code: 'local', organization_id: W.orgId }]);
      const correlations = await u.call('GET', '/api/v1/intelligence/correlations');
      expect(correlations.status).toBe(200);
    },
  },
  '202611240142_intelligence_drop_correlation_incident_ids': {
    async fill(db) {
      await db
        .insertInto('intelligence_correlation')
        .values({
          id: 'cor_upgrade_row',
          organization_id: W.orgId,
          attribute: 'address',
          value: '203.0.113.7',
          monitor_ids: json([W.monitorId, W.secondMonitorId]),
          coverage: 1,
          summary: '2 monitors on 203.0.113.7 failed together',
          started_at: ms(0.01),
          last_seen_at: ms(0.005),
        })
        .execute();
    },
    async check(u) {
      const [row] = await u.raw.selectFrom('intelligence_correlation').selectAll().execute();
      expect(row).toMatchObject({ id: 'cor_upgrade_row', attribute: 'address' });
      expect(row).not.toHaveProperty('incident_ids');
      const window = `from=${new Date(ms(1)).toISOString()}&to=${new Date(NOW + DAY).toISOString()}`;
      const listed = await u.call('GET', `/api/v1/intelligence/correlations?${window}`);
      expect(listed.body.data.map((c: Json) => c.id)).toContain('cor_upgrade_row');
    },
  },
  '202611240157_intelligence_recent_indexes': {
    async fill(db) {
      await db
        .insertInto('intelligence_correlation')
        .values({
          id: 'cor_upgrade_indexed',
          organization_id: W.orgId,
          attribute: 'cdn',
          value: 'cloudfront',
          monitor_ids: json([W.monitorId, W.secondMonitorId]),
          coverage: 1,
          summary: '2 monitors on cloudfront failed together',
          started_at: ms(0.02),
          last_seen_at: ms(0.015),
        })
        .execute();
    },
    async check(u) {
      const window = `from=${new Date(ms(1)).toISOString()}&to=${new Date(NOW + DAY).toISOString()}`;
      const listed = await u.call('GET', `/api/v1/intelligence/correlations?${window}`);
      expect(listed.body.data.map((c: Json) => c.id)).toContain('cor_upgrade_indexed');
    },
  },
  '202611232200_orgs_invitations': {
    async fill(db) {
      await db
        .insertInto('invitation')
        .values({
          id: W.invitationId,
          organization_id: W.orgId,
          email: 'invitee@upgrade.example.com',
          name: 'Invitee',
          role: 'admin',
          token_hash: sha256(W.invitationToken),
          expires_at: NOW + 6 * DAY,
          invited_by: W.userId,
          created_at: ms(1),
        })
        .execute();
    },
    async check(u) {
      const before = await u.call('GET', '/api/v1/auth/organization/members');
      expect(before.body.data).toContainEqual({
        invitation_id: W.invitationId,
        email: 'invitee@upgrade.example.com',
        name: 'Invitee',
        role: 'admin',
        status: 'invited',
        invited_at: new Date(ms(1)).toISOString(),
        expires_at: new Date(NOW + 6 * DAY).toISOString(),
      });
      // A GET of the old link accepts nothing; the web page's POST does (a new user chooses a password).
      const page = await u.tocsin.app.inject({ method: 'GET', url: `/verify-email?token=${W.invitationToken}` });
      expect(page.statusCode).toBe(400);
      const accepted = await u.tocsin.app.inject({
        method: 'POST',
        url: '/api/v1/auth/invitations/accept',
        payload: { token: W.invitationToken, password: 'invitee password' },
      });
      expect(accepted.statusCode).toBe(201);
      const after = await u.call('GET', '/api/v1/auth/organization/members');
      expect(after.body.data).toContainEqual(
        expect.objectContaining({ email: 'invitee@upgrade.example.com', role: 'admin', email_verified: true }),
      );
      expect(after.body.data.some((m: Json) => m.invitation_id === W.invitationId)).toBe(false);
    },
  },
  '202611240730_events_incident_index': {
    // An index only; the down event of 202611220004 is made the incident's (the column existed from the start), and
    // its delivery of 202611220300 is then listed among the incident's deliveries.
    async fill(db) {
      await db.updateTable('domain_event').set({ incident_id: W.incidentId }).where('id', '=', W.eventId).execute();
    },
    async check(u) {
      const r = await u.call('GET', `/api/v1/incidents/${W.incidentId}/deliveries`);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body.data).toEqual([
        expect.objectContaining({
          id: W.deliveryId,
          destination: expect.objectContaining({ id: W.destinationId }),
          event: expect.objectContaining({ id: W.eventId, type: 'down' }),
          status: 'delivered',
          outcome: 'delivered',
        }),
      ]);
    },
  },
  '202611240629_checks_schedule_lease_index': {
    // An index only: the schedule row of 202611230001 is still there, and the engine reads the schedule's pressure.
    async fill() {},
    async check(u) {
      const rows = await u.raw.selectFrom('check_schedule').select('monitor_id').execute();
      expect(rows).toContainEqual({ monitor_id: W.monitorId });
      expect(await u.tocsin.services.checks.engine.pressure()).toMatchObject({ shedding: false });
    },
  },
  '202611242100_checks_schedule_timeout': {
    // A new column: the schedule row of 202611230001 reads 0 (the configured lease alone) until the scheduler's
    // reconcile at start writes the monitor's timeout (its config has none: the probes' 10 s).
    async fill() {},
    async check(u) {
      const timeoutOf = async () =>
        (
          await u.raw
            .selectFrom('check_schedule')
            .select('timeout_ms')
            .where('monitor_id', '=', W.monitorId)
            .executeTakeFirstOrThrow()
        ).timeout_ms;
      expect(Number(await timeoutOf())).toBe(0);
      await u.tocsin.services.checks.sync.reconcile();
      expect(Number(await timeoutOf())).toBe(10_000);
    },
  },
  '202611240453_incidents_opened_index': {
    // An index only: the incident of 202611220010 is found again in opening order by the incidents report.
    async fill() {},
    async check(u) {
      const r = await u.call('GET', '/api/v1/reports/incidents/export?format=json&period=last_90_days');
      if (r.status === 200) expect(r.body.incidents.map((i: Json) => i.id)).toContain(W.incidentId);
      else expect(r.body.error.code).toBe('plan_upgrade_required');
    },
  },
  '202611240317_reports_custom_reports': {
    async fill(db) {
      await db
        .insertInto('custom_report')
        .values({
          id: W.customReportId,
          organization_id: W.orgId,
          owner_id: W.userId,
          name: 'Upgraded custom report',
          period: json('last_7_days'),
          timezone: 'Europe/Berlin',
          widgets: json([{ kind: 'availability', title: 'Shop', monitor_ids: [W.monitorId] }]),
          visibility: 'private',
          shared_with_user_ids: json([]),
          created_at: ms(1),
          updated_at: ms(1),
        })
        .execute();
    },
    async check(u) {
      const report = await u.call('GET', `/api/v1/custom-reports/${W.customReportId}`);
      expect(report.status).toBe(200);
      expect(report.body).toMatchObject({ name: 'Upgraded custom report', owner_id: W.userId, visibility: 'private' });
      const rendered = await u.call('GET', `/api/v1/custom-reports/${W.customReportId}/render`);
      expect(rendered.status).toBe(200);
      expect(rendered.body.sections[0].report.monitors[0].monitor_id).toBe(W.monitorId);
    },
  },
  '202611240037_orgs_passwords': {
    async fill(db) {
      await db
        .updateTable('app_user')
        .set({ password_hash: await hashPassword(W.password) })
        .where('id', '=', W.userId)
        .execute();
      await db
        .insertInto('password_reset')
        .values({
          token_hash: sha256(W.resetToken),
          user_id: W.userId,
          expires_at: NOW + HOUR,
          used_at: null,
          created_at: ms(0),
        })
        .execute();
    },
    async check(u) {
      const signedIn = await u.tocsin.app.inject({
        method: 'POST',
        url: '/api/v1/auth/sessions',
        payload: { email: W.email, password: W.password },
      });
      expect(signedIn.statusCode).toBe(201);
      // The reset link of before the upgrade is used in the check of 202611240041_auth_sessions.
    },
  },
  '202611240041_auth_sessions': {
    async fill(db) {
      await db
        .insertInto('user_session')
        .values({
          id: W.sessionId,
          token_hash: sha256(W.sessionToken),
          user_id: W.userId,
          organization_id: W.orgId,
          created_at: ms(1),
          last_seen_at: ms(1),
          expires_at: NOW + 29 * DAY,
          ended_at: null,
          user_agent: 'Old browser',
          ip: '192.0.2.1',
        })
        .execute();
      await db
        .insertInto('sign_in_throttle')
        .values({ subject: 'ip:192.0.2.1', failures: 2, last_failure_at: ms(0), blocked_until: 0 })
        .execute();
    },
    async check(u) {
      const session = await u.tocsin.app.inject({
        method: 'GET',
        url: '/api/v1/auth/session',
        headers: { cookie: `tocsin_session=${W.sessionToken}` },
      });
      expect(session.statusCode).toBe(200);
      expect(session.json()).toMatchObject({ user: { id: W.userId }, organization: { id: W.orgId }, role: 'owner' });
      const reset = await u.tocsin.app.inject({
        method: 'POST',
        url: '/api/v1/auth/password-reset/confirm',
        payload: { token: W.resetToken, password: 'a new password after the upgrade' },
      });
      expect(reset.statusCode).toBe(204);
      const ended = await u.tocsin.app.inject({
        method: 'GET',
        url: '/api/v1/auth/session',
        headers: { cookie: `tocsin_session=${W.sessionToken}` },
      });
      expect(ended.statusCode).toBe(401);
    },
  },
  '202611240541_scheduledreports_init': {
    async fill(db) {
      const srp = 'srp_00000000000000000000000001';
      await db
        .insertInto('scheduled_report')
        .values({
          id: srp,
          organization_id: W.orgId,
          report_type: 'availability',
          custom_report_id: null,
          frequency: 'weekly',
          day_of_week: 1,
          day_of_month: null,
          time_of_day: '08:00',
          timezone: 'Europe/Berlin',
          destination_ids: json([W.destinationId]),
          enabled: 0,
          next_run_at: NOW + 3 * DAY,
          last_run_at: ms(4),
          last_status: 'delivered',
          run_requests: 0,
          lease_owner: null,
          lease_until: null,
          created_by_user_id: W.userId,
          created_by_key_id: W.keyId,
          environments: json(['production']),
          created_at: ms(5),
          updated_at: ms(5),
        })
        .execute();
      await db
        .insertInto('report_file')
        .values({
          id: 'rpf_00000000000000000000000001',
          organization_id: W.orgId,
          scheduled_report_id: srp,
          event_id: W.eventId,
          kind: 'csv',
          filename: 'upgraded.csv',
          content_type: 'text/csv; charset=utf-8',
          size_bytes: 4,
          body: Buffer.from('a,b\n'),
          token_hash: sha256('upgrade-report-file-token'),
          expires_at: NOW + 100 * DAY,
          created_at: ms(4),
        })
        .execute();
    },
    async check(u) {
      const s = await u.call('GET', '/api/v1/scheduled-reports/srp_00000000000000000000000001');
      expect(s.status).toBe(200);
      expect(s.body).toMatchObject({ frequency: 'weekly', day_of_week: 1, enabled: false, last_status: 'delivered' });
      const file = await u.tocsin.app.inject({
        method: 'GET',
        url: '/api/v1/report-files/rpf_00000000000000000000000001?token=upgrade-report-file-token',
      });
      expect(file.statusCode).toBe(200);
      expect(file.body).toBe('a,b\n');
    },
  },
  '202611241000_rollups_day_prefixes': {
    // A closed UTC day with its 24 hours (10 checks, 1 failure each); on PostgreSQL its daily row carries the prefix
    // sums the compactor writes (SQLite gets them at the next step). A New York day of it is the daily row less prefix 5.
    async fill(db, dialect) {
      const { mk, rk, day } = await prefixDay(db);
      const row = { monitor_key: mk, region_key: rk, downtime_ms: 0, sketch: null };
      await db
        .insertInto('execution_rollup')
        .values(Array.from({ length: 24 }, (_, h) => ({ ...row, hour_start: day + h * HOUR, checks: 10, failures: 1 })))
        .execute();
      await db
        .insertInto('execution_rollup_day')
        .values({ ...row, hour_start: day, checks: 240, failures: 24 })
        .execute();
      if (dialect === 'postgres') {
        const k = Array.from({ length: 23 }, (_, i) => i + 1);
        await sql`update execution_rollup_day set prefix_checks = ${k.map((n) => 10 * n)}::integer[],
            prefix_failures = ${k}::integer[], prefix_sketches = ${k.map(() => null)}::bytea[]
          where monitor_key = ${mk} and hour_start = ${day}`.execute(db);
      }
    },
    check: checkPrefixDay,
  },
  '202611241100_rollups_day_prefixes_sqlite': {
    // SQLite: the same day's prefixes as rows of their own, and its daily row marked.
    async fill(db, dialect) {
      if (dialect !== 'sqlite') return;
      const { mk, rk, day } = await prefixDay(db);
      const k = Array.from({ length: 23 }, (_, i) => i + 1);
      await db
        .insertInto('execution_rollup_prefix')
        .values(
          k.map((n) => ({
            monitor_key: mk,
            region_key: rk,
            hour_start: day + n * HOUR,
            checks: 10 * n,
            failures: n,
            downtime_ms: 0,
            sketch: null,
          })),
        )
        .execute();
      await db.updateTable('execution_rollup_day').set({ prefixed: 1 }).where('hour_start', '=', day).execute();
    },
    check: checkPrefixDay,
  },
  '202611240700_status_pages_show_sla_targets': {
    // The page of 202611220011 reads show_sla_targets false (the column's default); a page written with it on keeps it.
    async fill(db) {
      await db
        .insertInto('status_page')
        .values({
          id: 'stp_00000000000000000000000002',
          organization_id: W.orgId,
          slug: 'upgrade-sla',
          title: 'Upgrade SLA',
          monitor_ids: json([W.monitorId]),
          public: 1,
          show_sla_targets: 1,
          created_at: ms(3),
          updated_at: ms(3),
        })
        .execute();
    },
    async check(u) {
      const old = await u.call('GET', `/api/v1/status-pages/${W.statusPageId}`);
      expect(old.body).toMatchObject({ show_sla_targets: false });
      const page = await u.call('GET', '/api/v1/status-pages/stp_00000000000000000000000002');
      expect(page.body).toMatchObject({ slug: 'upgrade-sla', show_sla_targets: true });
      const publicView = await u.tocsin.app.inject({ method: 'GET', url: '/status/upgrade-sla.json' });
      expect(publicView.statusCode).toBe(200);
      expect(Array.isArray((publicView.json() as Json).sla_targets)).toBe(true);
    },
  },
  '202611281000_audit_entries': {
    // A new table: an entry written by a release with the audit log reads back through the API, masked as stored.
    async fill(db) {
      await db
        .insertInto('audit_entry')
        .values({
          id: newId('aud', ms(1)),
          organization_id: W.orgId,
          at: ms(1),
          actor_type: 'key',
          actor_id: W.keyId,
          actor_name: 'upgrade key',
          action: 'monitor.update',
          target_type: 'monitor',
          target_id: W.monitorId,
          changes: json({ name: ['old', 'new'] }),
          ip: '192.0.2.7',
          request_id: 'req-upgrade',
        })
        .execute();
    },
    async check(u) {
      const r = await u.call('GET', `/api/v1/audit-log?target_id=${W.monitorId}&action=monitor.update`);
      expect(r.status).toBe(200);
      expect(r.body.data).toContainEqual(
        expect.objectContaining({
          action: 'monitor.update',
          actor: { type: 'key', id: W.keyId, name: 'upgrade key' },
          target: { type: 'monitor', id: W.monitorId },
          changes: { name: ['old', 'new'] },
          ip: '192.0.2.7',
          request_id: 'req-upgrade',
        }),
      );
    },
  },
  '202611281100_status_pages_allow_embedding': {
    // Pages written before read allow_embedding false (framed by this app only); one written with it on keeps it.
    async fill(db) {
      await db
        .insertInto('status_page')
        .values({
          id: 'stp_00000000000000000000000003',
          organization_id: W.orgId,
          slug: 'upgrade-embed',
          title: 'Upgrade embed',
          monitor_ids: json([W.monitorId]),
          public: 1,
          show_sla_targets: 0,
          allow_embedding: 1,
          created_at: ms(3),
          updated_at: ms(3),
        })
        .execute();
    },
    async check(u) {
      const old = await u.call('GET', `/api/v1/status-pages/${W.statusPageId}`);
      expect(old.body).toMatchObject({ allow_embedding: false });
      const page = await u.call('GET', '/api/v1/status-pages/stp_00000000000000000000000003');
      expect(page.body).toMatchObject({ slug: 'upgrade-embed', allow_embedding: true });
      const html = await u.tocsin.app.inject({ method: 'GET', url: '/status/upgrade-embed' });
      expect(html.statusCode).toBe(200);
      expect(html.headers['content-security-policy']).toMatch(/frame-ancestors \*$/);
    },
  },
  '202611300500_status_pages_subscribers': {
    // Pages written before take no subscriptions; a confirmed subscriber written with it reads back.
    async fill(db) {
      await db
        .updateTable('status_page')
        .set({ subscriptions_enabled: 1 })
        .where('slug', '=', 'upgrade-embed')
        .execute();
      await db
        .insertInto('status_subscriber')
        .values({
          id: 'sub_00000000000000000000000001',
          organization_id: W.orgId,
          status_page_id: 'stp_00000000000000000000000003',
          kind: 'email',
          address: 'reader@example.com',
          confirmed_at: ms(2),
          confirm_token_hash: null,
          confirm_expires_at: null,
          confirm_sent_at: ms(3),
          unsubscribe_token_hash: 'a'.repeat(64),
          unsubscribe_token_sealed: 'v1:sealed',
          signing_secret_sealed: null,
          created_at: ms(3),
        })
        .execute();
    },
    async check(u) {
      const old = await u.call('GET', `/api/v1/status-pages/${W.statusPageId}`);
      expect(old.body).toMatchObject({ subscriptions_enabled: false });
      const list = await u.call('GET', '/api/v1/status-pages/stp_00000000000000000000000003/subscribers');
      expect(list.body).toMatchObject({
        data: [
          { id: 'sub_00000000000000000000000001', type: 'email', email: 'reader@example.com', status: 'confirmed' },
        ],
      });
    },
  },
  '202611281500_incidents_down_since': {
    // The incident of 202611220010 (open 10 minutes) learns that its outage began a minute before it opened.
    async fill(db) {
      await db
        .updateTable('incident')
        .set({ down_since: ms(27) - 60_000 })
        .where('id', '=', W.incidentId)
        .execute();
    },
    async check(u) {
      const inc = await u.call('GET', `/api/v1/incidents/${W.incidentId}`);
      expect(inc.body).toMatchObject({
        down_since: new Date(ms(27) - 60_000).toISOString(),
        duration_seconds: 660,
        time_to_resolve_seconds: 600,
      });
    },
  },
  '202611290100_maintenance_init': {
    // A weekly window written by this release's schema reads back whole, its next occurrence computed in its zone.
    async fill(db) {
      await db
        .insertInto('maintenance_window')
        .values({
          id: 'mnt_00000000000000000000000001',
          organization_id: W.orgId,
          name: 'Upgrade patching',
          description: 'Every Sunday',
          monitor_ids: json([W.monitorId]),
          tags: json(['db']),
          schedule: json({
            type: 'recurring',
            rrule: 'FREQ=WEEKLY;BYDAY=SU',
            startTime: '03:00',
            durationMinutes: 60,
            startDate: '2026-11-01',
          }),
          timezone: 'Europe/Berlin',
          suppress_alerts: 1,
          exclude_from_sla: 0,
          status_page_ids: json([]),
          announce_minutes_before: 30,
          early_ends: json([]),
          created_at: ms(2),
          updated_at: ms(2),
        })
        .execute();
    },
    async check(u) {
      const w = await u.call('GET', '/api/v1/maintenance-windows/mnt_00000000000000000000000001');
      expect(w.status).toBe(200);
      // NOW is Monday 23 Nov 2026 12:00Z: the next Sunday 03:00 CET is 29 Nov 02:00Z.
      expect(w.body).toMatchObject({
        name: 'Upgrade patching',
        monitor_ids: [W.monitorId],
        tags: ['db'],
        schedule: { type: 'recurring', rrule: 'FREQ=WEEKLY;BYDAY=SU', start_time: '03:00', duration_minutes: 60 },
        exclude_from_sla: false,
        announce_minutes_before: 30,
        next_start_at: '2026-11-29T02:00:00.000Z',
      });
    },
  },
  '202611290200_silences_init': {
    // A new table: a silence written by a release with silences reads back through the API (ended: listed on request).
    async fill(db) {
      await db
        .insertInto('silence')
        .values({
          id: 'sil_00000000000000000000000001',
          organization_id: W.orgId,
          monitor_ids: json([W.monitorId]),
          tags: json([]),
          events: json(['down']),
          destination_ids: json([]),
          starts_at: ms(2),
          ends_at: ms(1),
          comment: 'upgrade silence',
          created_by: W.userId,
          created_at: ms(2),
          updated_at: ms(2),
        })
        .execute();
    },
    async check(u) {
      const r = await u.call('GET', '/api/v1/silences/sil_00000000000000000000000001');
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({
        matchers: { monitor_ids: [W.monitorId], tags: [], events: ['down'], destination_ids: [] },
        comment: 'upgrade silence',
        state: 'ended',
        created_by: W.userId,
      });
    },
  },
  '202611290210_alerting_silences_grouping': {
    // Destinations written before read a grouping window of 0 (off); deliveries before are neither held nor grouped.
    async fill(db) {
      await db
        .updateTable('destination')
        .set({ group_window_seconds: 120 })
        .where('id', '=', W.secondDestinationId)
        .execute();
    },
    async check(u) {
      const old = await u.call('GET', `/api/v1/auth/organization/webhooks/${W.destinationId}`);
      expect(old.body).toMatchObject({ group_window_seconds: 0 });
      const grouped = await u.call('GET', `/api/v1/auth/organization/webhooks/${W.secondDestinationId}`);
      expect(grouped.body).toMatchObject({ group_window_seconds: 120 });
      const deliveries = await u.raw.selectFrom('delivery').selectAll().where('id', '=', W.deliveryId).execute();
      expect(deliveries).toMatchObject([{ status: 'delivered', silence_id: null, group_id: null }]);
    },
  },
  '202611290300_monitors_dependencies': {
    // Search depends on Checkout: the config lists it, the row indexes it (Checkout's children are found through it).
    async fill(db) {
      await db
        .updateTable('monitor')
        .set({ config: json({ method: 'GET', timeout_seconds: 10, failure_threshold: 2, depends_on: [W.monitorId] }) })
        .where('id', '=', W.secondMonitorId)
        .execute();
      await db
        .insertInto('monitor_dependency')
        .values({ monitor_id: W.secondMonitorId, depends_on_id: W.monitorId, organization_id: W.orgId })
        .execute();
    },
    async check(u) {
      const m = await u.call('GET', `/api/v1/monitors/${W.secondMonitorId}`);
      expect(m.body.config.depends_on).toEqual([W.monitorId]);
      const children = await u.tocsin.services.monitors.childrenOf(u.tocsin.database, W.monitorId);
      expect(children.map((c) => c.id)).toEqual([W.secondMonitorId]);
    },
  },
  '202612010800_monitors_search': {
    // Nothing new to write: the migration fills its columns and index from the monitors already there (Checkout and
    // Search of 202611220003), which the check then finds by text and orders by name.
    async fill() {},
    async check(u) {
      const found = await u.call('GET', '/api/v1/monitors/summaries?q=CHECKOUT.EXAMPLE');
      expect(found.body.data.map((m: Json) => m.id)).toEqual([W.monitorId]);
      const short = await u.call('GET', '/api/v1/monitors?q=se&sort=name');
      expect(short.body.data.map((m: Json) => m.id)).toEqual([W.secondMonitorId]);
      const byName = await u.call('GET', '/api/v1/monitors/summaries?sort=name&limit=1');
      expect(byName.body.data.map((m: Json) => m.name)).toEqual(['Checkout']);
      expect(byName.body.total).toBeGreaterThanOrEqual(2);
    },
  },
  '202612011100_monitors_tags': {
    // Nothing new to write: the migration copies the tags of the monitors already there (both `team:web`, 202611220003)
    // into monitor_tag, which the list's tag filter reads.
    async fill() {},
    async check(u) {
      const tagged = await u.call('GET', '/api/v1/monitors?tag=team:web');
      expect(tagged.body.data.map((m: Json) => m.id).sort()).toEqual([W.monitorId, W.secondMonitorId].sort());
      expect((await u.call('GET', '/api/v1/monitors?tag=team')).body.data).toEqual([]);
      const rows = await u.raw.selectFrom('monitor_tag').select(['monitor_id', 'tag', 'organization_id']).execute();
      expect(rows).toHaveLength(2);
      expect(rows.every((r: Json) => r.tag === 'team:web' && r.organization_id === W.orgId)).toBe(true);
    },
  },
  '202612011101_monitors_search_trigger': {
    // Nothing to write: SQLite's trigger now rewrites a monitor's trigram rows only when its search text changes.
    async fill() {},
    async check(u) {
      const found = await u.call('GET', '/api/v1/monitors?q=search.example');
      expect(found.body.data.map((m: Json) => m.id)).toEqual([W.secondMonitorId]);
      if (u.dialect !== 'sqlite') return;
      const trigger = await u.raw
        .selectFrom('sqlite_master')
        .select('sql')
        .where('name', '=', 'monitor_search_au')
        .executeTakeFirstOrThrow();
      expect(trigger.sql).toMatch(/when old\.search_text is not new\.search_text/);
    },
  },
  '202611290301_incidents_dependencies': {
    // The incident of 202611220010 becomes one a parent held for a minute before its alert went out.
    async fill(db) {
      await db
        .updateTable('incident')
        .set({ blocked_by: json([W.secondMonitorId]), suppressed_by: null, alert_released_at: ms(27) + 60_000 })
        .where('id', '=', W.incidentId)
        .execute();
    },
    async check(u) {
      const inc = await u.call('GET', `/api/v1/incidents/${W.incidentId}`);
      expect(inc.body).toMatchObject({
        blocked_by: [W.secondMonitorId],
        suppressed_by: null,
        alert_released_at: new Date(ms(27) + 60_000).toISOString(),
      });
    },
  },
  '202611290400_checks_drop_monitor_status_change': {
    // Nothing to write: the migration drops a table that nothing read.
    async fill() {},
    async check(u) {
      await expect(u.raw.selectFrom('monitor_status_change').selectAll().execute()).rejects.toThrow();
      // What is read of a transition stays: the monitor's status (and the timeline, checked at 202611230001).
      const monitor = await u.call('GET', `/api/v1/monitors/${W.monitorId}`);
      expect(monitor).toMatchObject({ status: 200, body: { id: W.monitorId, status: 'up' } });
    },
  },
  '202611300300_status_pages_notices': {
    // A published notice with one update on the page of 202611220011; that page reads auto_notices false.
    async fill(db) {
      await db
        .insertInto('status_page_notice')
        .values({
          id: 'ntc_00000000000000000000000001',
          organization_id: W.orgId,
          status_page_id: W.statusPageId,
          kind: 'incident',
          title: 'Upgrade notice',
          impact: 'major',
          status: 'identified',
          affected_monitor_ids: json([W.monitorId]),
          incident_id: W.incidentId,
          published: 1,
          published_at: ms(2),
          resolved_at: null,
          postmortem: null,
          postmortem_published_at: null,
          automatic: 0,
          created_at: ms(2),
          updated_at: ms(2),
        })
        .execute();
      await db
        .insertInto('status_page_notice_update')
        .values({
          id: 'ntu_00000000000000000000000001',
          notice_id: 'ntc_00000000000000000000000001',
          status: 'identified',
          body: 'Found **it**.',
          created_at: ms(2),
        })
        .execute();
    },
    async check(u) {
      const page = await u.call('GET', `/api/v1/status-pages/${W.statusPageId}`);
      expect(page.body).toMatchObject({ auto_notices: false });
      const notice = await u.call(
        'GET',
        `/api/v1/status-pages/${W.statusPageId}/notices/ntc_00000000000000000000000001`,
      );
      expect(notice).toMatchObject({
        status: 200,
        body: {
          title: 'Upgrade notice',
          incident_id: W.incidentId,
          published: true,
          updates: [{ id: 'ntu_00000000000000000000000001', status: 'identified', body: 'Found **it**.' }],
        },
      });
      const atom = await u.tocsin.app.inject({ method: 'GET', url: `/status/${W.slug}/feed.atom` });
      expect(atom.statusCode).toBe(200);
      expect(atom.body).toContain('Upgrade notice');
    },
  },
  '202611300400_status_pages_layout': {
    // Pages written before read no groups, no domain, public access and UTC; one written with the layout keeps it.
    async fill(db) {
      await db
        .insertInto('status_page')
        .values({
          id: 'stp_00000000000000000000000004',
          organization_id: W.orgId,
          slug: 'upgrade-layout',
          title: 'Upgrade layout',
          monitor_ids: json([]),
          public: 1,
          show_sla_targets: 0,
          allow_embedding: 0,
          groups: json([{ name: 'Core', monitor_ids: [W.monitorId], collapsed: true }]),
          custom_domain: 'status.upgrade.example.test',
          access: 'password',
          password_hash: await hashPassword('upgrade page password'),
          timezone: 'Europe/Paris',
          created_at: ms(2),
          updated_at: ms(2),
        })
        .execute();
    },
    async check(u) {
      const old = await u.call('GET', `/api/v1/status-pages/${W.statusPageId}`);
      expect(old.body).toMatchObject({
        groups: [],
        custom_domain: null,
        access: 'public',
        password_set: false,
        timezone: 'UTC',
      });
      const page = await u.call('GET', '/api/v1/status-pages/stp_00000000000000000000000004');
      expect(page.body).toMatchObject({
        groups: [{ name: 'Core', monitor_ids: [W.monitorId], collapsed: true }],
        custom_domain: 'status.upgrade.example.test',
        access: 'password',
        password_set: true,
        timezone: 'Europe/Paris',
      });
      const locked = await u.tocsin.app.inject({ method: 'GET', url: '/status/upgrade-layout.json' });
      expect(locked.statusCode).toBe(401);
      const unlocked = await u.tocsin.app.inject({
        method: 'POST',
        url: '/status/upgrade-layout/access',
        payload: { password: 'upgrade page password' },
      });
      expect(unlocked.statusCode).toBe(204);
    },
  },
  '202611300600_badges_init': {
    // A new table: a badge token written by a release with badges keeps working after an upgrade.
    async fill(db) {
      await db
        .insertInto('monitor_badge')
        .values({
          id: 'bdg_00000000000000000000000001',
          organization_id: W.orgId,
          monitor_id: W.monitorId,
          token: 'upgrade-badge-token-000000000000',
          created_at: ms(2),
        })
        .execute();
    },
    async check(u) {
      const badge = await u.call('GET', `/api/v1/monitors/${W.monitorId}/badge`);
      expect(badge.status).toBe(200);
      expect(badge.body.token).toBe('upgrade-badge-token-000000000000');
      const status = await u.tocsin.app.inject({
        method: 'GET',
        url: '/badge/upgrade-badge-token-000000000000/status.json',
      });
      expect(status.statusCode).toBe(200);
      expect(status.json()).toMatchObject({ schemaVersion: 1, message: 'up' });
    },
  },
  '202612010500_checks_state_degraded': {
    // The counters filled earlier (202611230001: 5 successes; 202611232110: 2 failures) read as fast and impaired
    // checks (no monitor had a latency to be slow against). The new table keeps its row.
    async fill(db) {
      await db
        .insertInto('check_degraded')
        .values({ monitor_id: W.monitorId, since: ms(1), announced: 1 })
        .execute();
    },
    async check(u) {
      const rows = await u.raw
        .selectFrom('check_state')
        .select(['monitor_id', 'region_code', 'impaired', 'fast'])
        .where('monitor_id', 'in', [W.monitorId, W.secondMonitorId])
        .orderBy('monitor_id')
        .orderBy('region_code')
        .execute();
      expect(rows.map((r: Json) => [r.monitor_id, Number(r.impaired), Number(r.fast)])).toEqual(
        expect.arrayContaining([
          [W.monitorId, 0, 5],
          [W.secondMonitorId, 2, 0],
        ]),
      );
      const degraded = await u.raw.selectFrom('check_degraded').selectAll().execute();
      expect(degraded.map((r: Json) => [r.monitor_id, Number(r.since), Number(r.announced)])).toEqual([
        [W.monitorId, ms(1), 1],
      ]);
    },
  },
  '202611300700_config_documents_init': {
    // Checkout becomes managed by a configuration document under the key "checkout": the API refuses to change it.
    async fill(db) {
      await db
        .insertInto('config_item')
        .values({
          organization_id: W.orgId,
          kind: 'monitors',
          key: 'checkout',
          item_id: W.monitorId,
          applied: json({ key: 'checkout', type: 'http', target: 'https://checkout.example.com' }),
          applied_at: ms(30),
        })
        .execute();
    },
    async check(u) {
      const patch = await u.call('PATCH', `/api/v1/monitors/${W.monitorId}`, { name: 'renamed' });
      expect(patch.status).toBe(409);
      expect(patch.body).toMatchObject({ error: { code: 'managed_by_config' } });
    },
  },
  '202612010100_heartbeat_signals': {
    // The organization has a ping key and lets pings create heartbeat monitors.
    async fill(db) {
      await db
        .insertInto('heartbeat_org_setting')
        .values({ organization_id: W.orgId, ping_key: 'upgrade-ping-key-000000', auto_create: 1, updated_at: ms(1) })
        .execute();
    },
    async check(u) {
      const settings = await u.call('GET', '/api/v1/auth/organization/heartbeats');
      expect(settings.body).toEqual({ ping_key: 'upgrade-ping-key-000000', heartbeat_auto_create: true });
    },
  },
  '202612010900_heartbeat_signal_open_partial': {
    // A start still open and a success, written while every signal entered the full (monitor_id, open, at) index.
    async fill(db) {
      const signal = { monitor_id: W.monitorId, organization_id: W.orgId, duration_ms: null, exit_code: null };
      const rest = { body: null, body_bytes: 0, truncated: 0, source_ip: null, user_agent: null };
      await db
        .insertInto('heartbeat_signal')
        .values([
          { ...signal, ...rest, id: newId('png', ms(2)), kind: 'start', at: ms(2), rid: 'upgrade-run', open: 1 },
          { ...signal, ...rest, id: newId('png', ms(1)), kind: 'success', at: ms(1), rid: null, open: 0 },
        ])
        .execute();
    },
    async check(u) {
      // The open start is still what the pairing reads (`open = 1`, now through the partial index), the success not.
      const open = await u.raw
        .selectFrom('heartbeat_signal')
        .select(['kind', 'rid'])
        .where('monitor_id', '=', W.monitorId)
        .where('open', '=', 1)
        .orderBy('at', 'desc')
        .execute();
      expect(open).toEqual([{ kind: 'start', rid: 'upgrade-run' }]);
      const index =
        u.dialect === 'sqlite'
          ? await u.raw
              .selectFrom('sqlite_master')
              .select('sql as definition')
              .where('name', '=', 'heartbeat_signal_open_idx')
              .execute()
          : await u.raw
              .selectFrom('pg_indexes')
              .select('indexdef as definition')
              .where('indexname', '=', 'heartbeat_signal_open_idx')
              .execute();
      expect(index).toHaveLength(1);
      expect(String(index[0]!.definition).replace(/[\s"()]/g, '')).toMatch(/monitor_id,at.*WHEREopen=1/i);
    },
  },
  '202612011000_heartbeat_signal_filed': {
    // A ping stored before, beside the start and the success of the step above: every one was in the monitor index.
    async fill(db) {
      await db
        .insertInto('heartbeat_signal')
        .values({
          id: newId('png', ms(3)),
          monitor_id: W.monitorId,
          organization_id: W.orgId,
          kind: 'fail',
          at: ms(3),
          rid: null,
          open: 0,
          duration_ms: null,
          exit_code: 3,
          body: 'before filing',
          body_bytes: 13,
          truncated: 0,
          source_ip: null,
          user_agent: null,
        })
        .execute();
    },
    async check(u) {
      // Rows written before are filed: read through the monitor index, now partial (`filed = 1`), as before.
      const rows = await u.raw
        .selectFrom('heartbeat_signal')
        .select(['kind', 'filed'])
        .where('monitor_id', '=', W.monitorId)
        .where('filed', '=', 1)
        .orderBy('id', 'desc')
        .execute();
      expect(rows.map((r) => [r.kind, Number(r.filed)])).toEqual([
        ['success', 1],
        ['start', 1],
        ['fail', 1],
      ]);
      for (const [name, shape] of [
        ['heartbeat_signal_monitor_idx', /monitor_id,id.*WHEREfiled=1/i],
        ['heartbeat_signal_unfiled_idx', /id.*WHEREfiled=0/i],
      ] as const) {
        const index =
          u.dialect === 'sqlite'
            ? await u.raw.selectFrom('sqlite_master').select('sql as definition').where('name', '=', name).execute()
            : await u.raw
                .selectFrom('pg_indexes')
                .select('indexdef as definition')
                .where('indexname', '=', name)
                .execute();
        expect(index).toHaveLength(1);
        expect(String(index[0]!.definition).replace(/[\s"()]/g, '')).toMatch(shape);
      }
    },
  },
};

describe('migrations: every migration has upgrade fixtures', () => {
  it('names a fill and a check for each schema step', () => {
    const missing = STEPS.map((s) => s.name).filter((n) => !FIXTURES[n]);
    expect(missing, 'add an entry to FIXTURES in test/operations/migrations.upgrade.test.ts').toEqual([]);
  });
});

/** A copy of the ladder at one step for one upgrade: its handle, and the URL or data dir Tocsin is started with. */
interface StepCopy {
  database: Database;
  env: Record<string, string>;
  drop(): Promise<void>;
}

/**
 * One database migrated step by step once and filled after each step, copied at each step for that step's upgrade
 * (SQLite: the backup API; PostgreSQL: CREATE DATABASE … TEMPLATE). Re-migrating from an empty database for every
 * step made the ladder quadratic in migrations (about 700 s on two cores).
 */
interface Ladder {
  /** Migrates and fills the steps up to `prefix` that are not done yet. */
  climbTo(prefix: number): Promise<void>;
  copy(): Promise<StepCopy>;
  drop(): Promise<void>;
}

async function openLadder(dialect: Dialect): Promise<Ladder> {
  const ladder = await createTestDatabase(dialect, { migrate: false });
  let database = ladder.database;
  let step = 0;
  // One climb or copy at a time, even when a test that timed out is still running its part.
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const run = queue.then(work);
    queue = run.catch(() => undefined);
    return run;
  };
  return {
    climbTo: (prefix) =>
      serial(async () => {
        for (; step < prefix; step++) {
          await migrateToLatest(database, STEPS.slice(0, step + 1));
          const fixture = FIXTURES[STEPS[step]!.name];
          if (fixture) await fixture.fill(database.tables<any>(), dialect); // eslint-disable-line @typescript-eslint/no-explicit-any -- earlier schema
        }
      }),
    copy: () =>
      serial(async (): Promise<StepCopy> => {
        if (dialect === 'sqlite') {
          const dir = mkdtempSync(join(tmpdir(), 'tocsin-upgrade-'));
          const path = join(dir, 'tocsin.db');
          await backupSqlite(ladder.url, path);
          const copy = openDatabase({ url: null, sqlitePath: path });
          return {
            database: copy,
            env: { TOCSIN_DATA_DIR: dir },
            drop: async () => {
              await copy.close();
              rmSync(dir, { recursive: true, force: true });
            },
          };
        }
        const url = new URL(ladder.url);
        const source = url.pathname.slice(1);
        url.pathname = `/${source}_${step}`;
        // A database cannot be copied while anyone is connected to it.
        await database.close();
        await adminQuery(`CREATE DATABASE ${source}_${step} TEMPLATE ${source}`);
        database = ladder.reopen();
        const copy = openDatabase({ url: url.toString(), sqlitePath: '', poolSize: 2 });
        return {
          database: copy,
          env: { DATABASE_URL: url.toString() },
          drop: async () => {
            await copy.close();
            await adminQuery(`DROP DATABASE IF EXISTS ${url.pathname.slice(1)} WITH (FORCE)`);
          },
        };
      }),
    drop: () => ladder.drop(),
  };
}

/**
 * The steps whose rows are read back after the upgrade from `prefix`: the step filled last (its rows, written as that
 * schema had them, meet every later migration in the upgrading Tocsin's start), and at the last step every step (each
 * step's rows after every later migration ran on the ladder, with every other step's rows present).
 *
 * Reading every earlier step back after every upgrade (44 steps: 990 read-backs per dialect, three quarters of the
 * file's CPU) proved no more: a row of step j upgraded from a later step k went through the same migrations as from
 * step j + 1 or from the last step, run by the same `migrateToLatest`, only split between the ladder and the start at
 * another point. Each migration runs on each step's rows both ways here: in the start (from step j + 1) and on the
 * ladder with all the other rows (the last step). Every start still migrates all earlier steps' rows, so a migration
 * that fails on any of them fails that step.
 */
function stepsReadBack(prefix: number): number[] {
  return prefix === STEPS.length ? STEPS.map((_, j) => j) : [prefix - 1];
}

// The dialects' ladders run at the same time (each waits on its database much of the time); the steps of one ladder
// run in order, as each climbs from the one before.
describe.concurrent.each(testDialects())('migrations: upgrade from every earlier schema (%s)', (dialect) => {
  const logger = createLogger({ level: 'silent', pretty: false });
  const timings: number[] = [];
  let ladder: Ladder;
  beforeAll(async () => {
    ladder = await openLadder(dialect);
  });
  // How long the ladder takes (it must stay well under a minute as migrations are added).
  afterAll(() => {
    console.log(`${dialect}: ${STEPS.length} upgrades in ${timings.reduce((a, b) => a + b, 0)} ms`);
    return ladder?.drop();
  });

  it.each(STEPS.map((s, i) => [i + 1, s.name] as const))(
    'upgrades a database at step %i (%s) and reads every row back',
    // A bound for hangs, not slowness: the first step (43 migrations in the start) and the last (every step's rows read
    // back) take a few seconds quiet; on PostgreSQL at load 25, with four other upgrade runs on the same server, the
    // first took over 120 s.
    { concurrent: false, timeout: 300_000 },
    async (prefix) => {
      const started = Date.now();
      await ladder.climbTo(prefix);
      const db = await ladder.copy();
      try {
        const env: Record<string, string> = {
          NODE_ENV: 'test',
          TOCSIN_MASTER_KEY: Buffer.alloc(32, 1).toString('base64'),
        };
        Object.assign(env, db.env);
        const config = loadConfig({ env, isTty: false });
        const tocsin = await createTocsin(config, { logger, clock: new ManualClock(NOW), background: false });
        try {
          const owner = await tocsin.services.auth.issueKey({
            organizationId: W.orgId,
            name: 'after the upgrade',
            scopes: [...SCOPES],
            environments: ['production', 'staging', 'development'],
            userId: W.userId,
            createdBy: W.userId,
          });
          const u: Upgraded = {
            tocsin,
            dialect,
            raw: db.database.tables<any>(), // eslint-disable-line @typescript-eslint/no-explicit-any -- rows without a service read
            async call(method, url, body, key = owner.key, headers = {}) {
              const res = await tocsin.app.inject({
                method: method as 'GET',
                url,
                headers: { authorization: `Bearer ${key}`, ...headers },
                ...(body !== undefined && { payload: body as Json }),
              });
              const type = String(res.headers['content-type'] ?? '');
              return {
                status: res.statusCode,
                headers: res.headers,
                body: type.includes('json') ? res.json() : res.body,
              };
            },
          };
          for (const j of stepsReadBack(prefix)) await FIXTURES[STEPS[j]!.name]!.check(u);
        } finally {
          await tocsin.close();
        }
      } finally {
        await db.drop();
        timings.push(Date.now() - started);
      }
    },
  );
});
