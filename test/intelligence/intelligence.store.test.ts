import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor, ServiceContext } from '../../src/modules/auth/index.ts';
import { EventsService } from '../../src/modules/events/index.ts';
import {
  IntelligenceService,
  type IntelligenceCheck,
  type IntelligenceIncidents,
} from '../../src/modules/intelligence/index.ts';
import { createOrgs } from '../../src/modules/orgs/index.ts';
import { IntelligenceRepository } from '../../src/modules/intelligence/intelligence.repository.ts';
import { ManualClock } from '../../src/platform/clock.ts';
import type { Database } from '../../src/platform/db/index.ts';
import { newId } from '../../src/platform/ids.ts';
import { createTestDatabase, testDialects, type TestDatabase } from '../support/databases.ts';

const T0 = Date.parse('2026-11-02T00:00:00.000Z');
const MIN = 60_000;
const HOUR = 60 * MIN;

for (const dialect of testDialects()) {
  describe(`intelligence store (${dialect})`, () => {
    let db: TestDatabase;
    let org: string;
    let otherOrg: string;
    const clock = new ManualClock(T0);
    const monitors = new Map<string, { id: string; organizationId: string; environment: string }>();
    const incidentCalls: string[] = [];
    const incidents: IntelligenceIncidents = {
      async openFromIntelligence(_tx: Database, input) {
        incidentCalls.push(`open ${input.monitorId} ${input.title}`);
        return `inc_for_${input.monitorId}`;
      },
      async resolveFromIntelligence(_tx: Database, _organizationId, incidentId) {
        incidentCalls.push(`resolve ${incidentId}`);
      },
    };
    let events: EventsService;
    let service: IntelligenceService;

    async function newOrg(): Promise<string> {
      const orgs = createOrgs({ database: db.database, clock, defaultPlan: 'team', defaultRegion: 'local' });
      return (await orgs.createOrganization({ name: 'o' })).id;
    }

    function monitor(organizationId: string, environment = 'production'): string {
      const id = newId('mon', T0 + monitors.size);
      monitors.set(id, { id, organizationId, environment });
      return id;
    }

    function ctx(organizationId: string, environments = ['production']): ServiceContext {
      // Only organizationId and environments matter to intelligence's reads.
      const actor = { organizationId, environments } as unknown as Actor;
      return { actor, db: db.database, clock };
    }

    function check(
      monitorId: string,
      at: number,
      latencyMs: number,
      over: Partial<IntelligenceCheck> = {},
    ): IntelligenceCheck {
      return {
        organizationId: org,
        monitorId,
        monitorName: 'API',
        target: 'https://api.example.com/',
        type: 'http',
        regionCode: 'eu-west',
        at,
        up: true,
        latencyMs,
        alertLatencyMs: null,
        openIncidents: false,
        ...over,
      };
    }

    /** Applies checks every 20 s from `from` to `to`, 15 per transaction, like the engine's batches. */
    async function run(
      monitorId: string,
      from: number,
      to: number,
      latency: (at: number) => number,
      over: Partial<IntelligenceCheck> = {},
    ) {
      let batch: IntelligenceCheck[] = [];
      for (let at = from; at < to; at += 20_000) {
        batch.push(check(monitorId, at, latency(at), over));
        if (batch.length === 15) {
          const b = batch;
          clock.set(at);
          await db.database.transaction((tx) => service.applyChecks(tx, b));
          batch = [];
        }
      }
      if (batch.length > 0) {
        const b = batch;
        clock.set(to);
        await db.database.transaction((tx) => service.applyChecks(tx, b));
      }
    }

    async function outbox(monitorId: string) {
      return (await events.readAfter(0, 10_000)).filter((e) => e.monitorId === monitorId);
    }

    /** A service on the test database, as another process would make it (no decoded state of its own). */
    function newService(): IntelligenceService {
      return new IntelligenceService({
        database: db.database,
        clock,
        events,
        monitors: { findManyAnywhere: async (ids) => ids.map((id) => monitors.get(id)!).filter(Boolean) },
        incidents,
      });
    }

    beforeAll(async () => {
      db = await createTestDatabase(dialect);
      org = await newOrg();
      otherOrg = await newOrg();
      events = new EventsService({ database: db.database, clock });
      service = newService();
    });
    afterAll(async () => db.drop());

    it('keeps detector state across batches: a latency step opens anomaly_alert, recovery ends it, both in the outbox', async () => {
      const mon = monitor(org);
      const wobble = (at: number) => 50 + ((at / 20_000) % 5);
      await run(mon, T0, T0 + 3 * HOUR, wobble);
      expect(await outbox(mon)).toEqual([]);
      const step = T0 + 3 * HOUR;
      await run(mon, step, step + 30 * MIN, (at) => (at < step + 10 * MIN ? 600 : wobble(at)));
      const sent = await outbox(mon);
      expect(sent.map((e) => e.type)).toEqual(['anomaly_alert', 'anomaly_recovered']);
      expect(sent[0]).toMatchObject({ organizationId: org, occurredAt: step + 5 * MIN, incidentId: null });
      expect(sent[0]!.payload).toMatchObject({ category: 'performance', severity: 'warning', region_code: 'eu-west' });
      const page = await service.list(ctx(org), { monitorId: mon }, { limit: 10 });
      expect(page.data.map((e) => [e.kind, e.startedAt, e.endedAt])).toEqual([
        ['anomaly_recovered', step, step + 15 * MIN],
        ['anomaly_alert', step, step + 15 * MIN],
      ]);
      expect(sent[0]!.payload.intelligence_event_id).toBe(page.data[1]!.id);
    });

    it('another process judges with the baseline learnt by the first (the learnt state is read from the database)', async () => {
      const mon = monitor(org);
      const wobble = (at: number) => 50 + ((at / 20_000) % 5);
      const from = T0 + 40 * HOUR;
      await run(mon, from, from + 3 * HOUR, wobble);
      const first = service;
      // A second service on the same database holds no decoded copy: it must fetch the learnt text.
      service = newService();
      try {
        const step = from + 3 * HOUR;
        await run(mon, step, step + 10 * MIN, () => 600);
        expect((await outbox(mon)).map((e) => e.type)).toEqual(['anomaly_alert']);
      } finally {
        service = first;
      }
    });

    it('raises performance_anomaly / performance_recovered around alert_latency_ms and opens an intelligence incident when asked', async () => {
      const mon = monitor(org);
      const from = T0 + 10 * HOUR;
      const series = [50, 600, 650, 600, 600, 50, 50, 50, 50];
      let i = 0;
      await run(mon, from, from + series.length * 20_000, () => series[i++]!, {
        alertLatencyMs: 300,
        openIncidents: true,
      });
      const sent = await outbox(mon);
      expect(sent.map((e) => e.type)).toEqual(['performance_anomaly', 'performance_recovered']);
      expect(sent[0]!.payload).toMatchObject({ latency_ms: 600, threshold_ms: 300 });
      expect(sent[0]!.incidentId).toBe(`inc_for_${mon}`);
      expect(incidentCalls).toEqual([`open ${mon} Slow responses: API`, `resolve inc_for_${mon}`]);
    });

    it('stores an observation only when it differs and reports a confirmed header change', async () => {
      const mon = monitor(org);
      const from = T0 + 20 * HOUR;
      const details = (server: string) => ({
        headers: { server, date: `d${Math.random()}` },
        body_sha256: 'abc',
        remote_address: '192.0.2.1',
      });
      const checks = [0, 1, 2, 3, 4].map((n) => check(mon, from + n * 20_000, 50, { details: details('nginx') }));
      await db.database.transaction((tx) => service.applyChecks(tx, checks));
      const changed = [5, 6].map((n) => check(mon, from + n * 20_000, 50, { details: details('caddy') }));
      await db.database.transaction((tx) => service.applyChecks(tx, changed));
      const rows = await db.database
        .tables<{ intelligence_observation: { monitor_id: string; snapshot: string } }>()
        .selectFrom('intelligence_observation')
        .select('snapshot')
        .where('monitor_id', '=', mon)
        .execute();
      expect(rows.map((r) => (JSON.parse(r.snapshot) as { headers: { server: string } }).headers.server)).toEqual([
        'nginx',
        'caddy',
      ]);
      const sent = await outbox(mon);
      expect(sent.map((e) => [e.type, e.payload.category, e.payload.summary])).toEqual([
        ['significant_change', 'headers', 'Header server changed from nginx to caddy.'],
      ]);
    });

    it('stores a snapshot that goes back to an earlier one, and another process does not store it again', async () => {
      const mon = monitor(org);
      const from = T0 + 25 * HOUR;
      const details = (server: string) => ({ headers: { server }, body_sha256: 'abc', remote_address: '192.0.2.1' });
      const servers = ['nginx', 'nginx', 'caddy', 'caddy', 'nginx', 'nginx'];
      const checks = servers.map((server, n) => check(mon, from + n * 20_000, 50, { details: details(server) }));
      for (const c of checks) await db.database.transaction((tx) => service.applyChecks(tx, [c]));
      const first = service;
      // A second service holds no text of the last snapshot: it compares the stored digest.
      service = newService();
      try {
        const later = check(mon, from + 6 * 20_000, 50, { details: details('nginx') });
        await db.database.transaction((tx) => service.applyChecks(tx, [later]));
      } finally {
        service = first;
      }
      const rows = await db.database
        .tables<{ intelligence_observation: { monitor_id: string; observed_at: number; snapshot: string } }>()
        .selectFrom('intelligence_observation')
        .select('snapshot')
        .where('monitor_id', '=', mon)
        .orderBy('observed_at')
        .execute();
      expect(rows.map((r) => (JSON.parse(r.snapshot) as { headers: { server: string } }).headers.server)).toEqual([
        'nginx',
        'caddy',
        'nginx',
      ]);
    });

    it('commits nothing when the batch transaction rolls back', async () => {
      const mon = monitor(org);
      const from = T0 + 30 * HOUR;
      const checks = [0, 1, 2].map((n) => check(mon, from + n * 20_000, 900, { alertLatencyMs: 100 }));
      await expect(
        db.database.transaction(async (tx) => {
          await service.applyChecks(tx, checks);
          throw new Error('engine failed later in the batch');
        }),
      ).rejects.toThrow('engine failed');
      expect(await outbox(mon)).toEqual([]);
      expect((await service.list(ctx(org), { monitorId: mon }, { limit: 10 })).data).toEqual([]);
      // The state was not saved either: the same three checks now raise the event exactly once.
      await db.database.transaction((tx) => service.applyChecks(tx, checks));
      expect((await outbox(mon)).map((e) => e.type)).toEqual(['performance_anomaly']);
    });

    /** The hot state row's version (`updated_at`) of the monitor in eu-west. */
    async function stateVersion(monitorId: string): Promise<number> {
      const row = await db.database
        .tables<{ intelligence_state: { monitor_id: string; region_code: string; updated_at: number } }>()
        .selectFrom('intelligence_state')
        .select('updated_at')
        .where('monitor_id', '=', monitorId)
        .where('region_code', '=', 'eu-west')
        .executeTakeFirstOrThrow();
      return Number(row.updated_at);
    }

    it('writes a region state back only when what decides events changed, or after stateWriteMs', async () => {
      const mon = monitor(org);
      const wobble = (at: number) => 50 + ((at / 20_000) % 5);
      // Half past: the minutes below stay inside one hour (an hour closing is written at once).
      const from = T0 + 50 * HOUR + 30 * MIN;
      await run(mon, from, from + 3 * HOUR, wobble);
      const written = await stateVersion(mon);
      // Two more minutes of ordinary checks in the same hour: the samples move, nothing that decides an event does.
      const next = from + 3 * HOUR;
      await run(mon, next, next + 2 * MIN, wobble);
      expect(await stateVersion(mon)).toBe(written);
      // A slow check starts a pending anomaly: written in that batch.
      await run(mon, next + 2 * MIN, next + 2 * MIN + 20_000, () => 900);
      const pending = await stateVersion(mon);
      expect(pending).toBeGreaterThan(written);
      await run(mon, next + 2 * MIN + 20_000, next + 3 * MIN, wobble);
      const back = await stateVersion(mon);
      expect(back).toBeGreaterThan(pending);
      // Quiet again: written once stateWriteMs (5 min) has passed since the last write.
      await run(mon, next + 3 * MIN, next + 7 * MIN, wobble);
      expect(await stateVersion(mon)).toBe(back);
      await run(mon, next + 7 * MIN, next + 9 * MIN, wobble);
      expect(await stateVersion(mon)).toBeGreaterThan(back);
    });

    it('a process whose copy is older than the row (another process judged meanwhile) reads the row again', async () => {
      const mon = monitor(org);
      const wobble = (at: number) => 50 + ((at / 20_000) % 5);
      const from = T0 + 60 * HOUR;
      await run(mon, from, from + 3 * HOUR, wobble);
      const first = service;
      service = newService();
      const step = from + 3 * HOUR;
      try {
        // The second process sees the anomaly open.
        await run(mon, step, step + 10 * MIN, () => 600);
      } finally {
        service = first;
      }
      // Back to the first: its decoded copy (no anomaly) is stale; it must close the anomaly the second opened.
      await run(mon, step + 10 * MIN, step + 20 * MIN, wobble);
      expect((await outbox(mon)).map((e) => e.type)).toEqual(['anomaly_alert', 'anomaly_recovered']);
    });

    it('a rolled-back batch leaves no judgement in the process copy of a known region', async () => {
      const mon = monitor(org);
      const wobble = (at: number) => 50 + ((at / 20_000) % 5);
      const from = T0 + 70 * HOUR;
      await run(mon, from, from + 3 * HOUR, wobble);
      const step = from + 3 * HOUR;
      const slow = Array.from({ length: 20 }, (_, n) => check(mon, step + n * 20_000, 600));
      clock.set(step + 7 * MIN);
      await expect(
        db.database.transaction(async (tx) => {
          await service.applyChecks(tx, slow);
          throw new Error('engine failed later in the batch');
        }),
      ).rejects.toThrow('engine failed');
      expect(await outbox(mon)).toEqual([]);
      // The same checks again: the anomaly opens now, once (the rolled-back batch had opened it in memory).
      await db.database.transaction((tx) => service.applyChecks(tx, slow));
      expect((await outbox(mon)).map((e) => [e.type, e.payload.started_at])).toEqual([
        ['anomaly_alert', new Date(step).toISOString()],
      ]);
    });

    it('records grades with history, raises a drop and a recovery, and shows the current grades', async () => {
      const mon = monitor(org);
      const m = { organizationId: org, id: mon, name: 'API', target: 'https://api.example.com/', openIncidents: false };
      const grade = (g: string, reasons: string[]) => ({
        grade: g,
        score: 90,
        reasons,
        not_tested: ['TLS_FALLBACK_SCSV'],
      });
      const at = T0 + 40 * HOUR;
      for (const [n, g] of [
        [0, grade('A+', ['fine'])],
        [1, grade('A+', ['fine'])],
        [2, grade('B', ['TLS 1.0 or TLS 1.1 is offered'])],
        [3, grade('A+', ['fine'])],
      ] as const)
        await db.database.transaction((tx) => service.recordGrade(tx, m, 'tls', g, at + n * HOUR));
      const sent = await outbox(mon);
      expect(sent.map((e) => [e.type, e.payload.previous_grade, e.payload.grade])).toEqual([
        ['security_grade_downgraded', 'A+', 'B'],
        ['security_grade_recovered', 'B', 'A+'],
      ]);
      const grades = await service.grades(ctx(org), mon);
      expect(grades.current).toMatchObject([{ kind: 'tls', grade: 'A+', gradedAt: at + 3 * HOUR }]);
      expect(grades.history.map((g) => g.grade)).toEqual(['A+', 'B', 'A+']);
      await expect(service.grades(ctx(otherOrg), mon)).rejects.toMatchObject({ code: 'not_found' });
    });

    it('lists checked monitors due for grading: never graded, or graded before the cutoff', async () => {
      const checked = monitor(org);
      const graded = monitor(org);
      const at = T0 + 45 * HOUR;
      clock.set(at);
      await db.database.transaction((tx) => service.applyChecks(tx, [check(checked, at, 50), check(graded, at, 50)]));
      const m = {
        organizationId: org,
        id: graded,
        name: 'API',
        target: 'https://api.example.com/',
        openIncidents: false,
      };
      await db.database.transaction((tx) =>
        service.recordGrade(tx, m, 'tls', { grade: 'A', score: 93, reasons: [], not_tested: [] }, at),
      );
      const due = await new IntelligenceRepository(db.database).monitorsDueForGrading(at - HOUR, 1000);
      expect(due).toContain(checked);
      expect(due).not.toContain(graded);
      expect(await new IntelligenceRepository(db.database).monitorsDueForGrading(at + 1, 1000)).toContain(graded);
    });

    it('records a correlation when monitors sharing an address start failing within five minutes', async () => {
      const a = monitor(org);
      const b = monitor(org);
      const c = monitor(org);
      const at = T0 + 60 * HOUR;
      const details = (address: string) => ({ headers: { server: 'nginx' }, remote_address: address });
      const up = [a, b].map((m) => check(m, at, 50, { details: details('192.0.2.50') }));
      up.push(check(c, at, 50, { details: details('198.51.100.9') }));
      await db.database.transaction((tx) => service.applyChecks(tx, up));
      await db.database.transaction((tx) => service.applyChecks(tx, [check(a, at + MIN, 0, { up: false })]));
      expect(await service.correlations(ctx(org), at, at + HOUR)).toEqual([]);
      await db.database.transaction((tx) =>
        service.applyChecks(tx, [check(b, at + 3 * MIN, 0, { up: false }), check(a, at + 3 * MIN, 0, { up: false })]),
      );
      const found = await service.correlations(ctx(org), at, at + HOUR);
      expect(found).toMatchObject([
        {
          attribute: 'address',
          value: '192.0.2.50',
          monitorIds: [a, b].sort(),
          coverage: 1,
          startedAt: at + MIN,
          lastSeenAt: at + 3 * MIN,
        },
      ]);
      expect(found[0]!.id).toMatch(/^cor_/);
      // c failing later, alone on its address, changes nothing; the other organization sees nothing
      await db.database.transaction((tx) => service.applyChecks(tx, [check(c, at + 4 * MIN, 0, { up: false })]));
      expect((await service.correlations(ctx(org), at, at + HOUR)).map((x) => x.value)).toEqual(['192.0.2.50']);
      expect(await service.correlations(ctx(otherOrg), at, at + HOUR)).toEqual([]);
    });

    it('pages newest first with a cursor, filters, and hides other environments and organizations', async () => {
      const prod = monitor(org);
      const staging = monitor(org, 'staging');
      // Half past: the minutes below stay inside one hour (an hour closing is written at once).
      const from = T0 + 50 * HOUR + 30 * MIN;
      for (const [mon, n] of [
        [prod, 0],
        [staging, 1],
        [prod, 2],
      ] as const) {
        const series = [900, 900, 900, 10, 10, 10];
        const checks = series.map((ms, k) => check(mon, from + n * HOUR + k * 20_000, ms, { alertLatencyMs: 300 }));
        await db.database.transaction((tx) => service.applyChecks(tx, checks));
      }
      const first = await service.list(ctx(org), { kind: 'performance_anomaly', monitorId: prod }, { limit: 1 });
      expect(first.data.map((e) => [e.monitorId, e.startedAt])).toEqual([[prod, from + 2 * HOUR]]);
      expect(first.next_cursor).not.toBeNull();
      const second = await service.list(
        ctx(org),
        { kind: 'performance_anomaly', monitorId: prod },
        { limit: 1, cursor: first.next_cursor! },
      );
      expect(second.data.map((e) => [e.monitorId, e.startedAt])).toEqual([[prod, from]]);
      expect(second.next_cursor).toBeNull();
      const all = await service.list(
        ctx(org, ['production', 'staging']),
        { category: 'performance', from },
        { limit: 50 },
      );
      expect(all.data.filter((e) => e.monitorId === staging)).toHaveLength(2);
      const hidden = all.data.find((e) => e.monitorId === staging)!;
      await expect(service.get(ctx(org), hidden.id)).rejects.toMatchObject({ code: 'not_found' });
      await expect(service.get(ctx(otherOrg), first.data[0]!.id)).rejects.toMatchObject({ code: 'not_found' });
      expect((await service.get(ctx(org), first.data[0]!.id)).kind).toBe('performance_anomaly');
    });
  });
}
