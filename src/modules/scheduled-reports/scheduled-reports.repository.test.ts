/**
 * The run lease on both databases: of two processes (two database handles) claiming the same due schedule at once
 * exactly one gets it; a lost lease cannot finish the run; an expired lease can be taken over; run-now requests are
 * counted; the role's next wake-up is the earliest due time, request or lease expiry; the latest runs of a schedule
 * come newest first.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDialects, type TestDatabase } from '../../../test/support/databases.ts';
import type { Database } from '../../platform/db/index.ts';
import { newId } from '../../platform/ids.ts';
import type { ScheduledReport } from './scheduled-report.types.ts';
import { ScheduledReportsRepository } from './scheduled-reports.repository.ts';

const NOW = Date.parse('2026-11-24T08:00:00.000Z');

function schedule(over: Partial<ScheduledReport> = {}): ScheduledReport {
  return {
    id: newId('srp', NOW),
    organizationId: 'org_00000000000000000000000001',
    reportType: 'availability',
    customReportId: null,
    frequency: 'daily',
    dayOfWeek: null,
    dayOfMonth: null,
    timeOfDay: '08:00',
    timezone: 'UTC',
    destinationIds: ['dst_00000000000000000000000001'],
    enabled: true,
    nextRunAt: NOW,
    lastRunAt: null,
    lastStatus: 'never_run',
    runRequests: 0,
    createdByUserId: null,
    createdByKeyId: 'key_00000000000000000000000001',
    environments: ['production'],
    createdAt: NOW - 1000,
    updatedAt: NOW - 1000,
    ...over,
  };
}

describe.each(testDialects())('scheduled report lease (%s)', (dialect) => {
  let db: TestDatabase;
  let other: Database;
  beforeAll(async () => {
    db = await createTestDatabase(dialect);
    other = db.reopen();
  });
  afterAll(async () => {
    await other.close();
    await db.drop();
  });

  it('the latest runs of a schedule come newest first, at most the limit, only its own', async () => {
    const repo = new ScheduledReportsRepository(db.database);
    const s = schedule();
    const another = schedule({ id: newId('srp', NOW + 1) });
    await repo.insert(s);
    await repo.insert(another);
    const run = (scheduleId: string, startedAt: number) => ({
      eventId: newId('evt', startedAt),
      scheduledReportId: scheduleId,
      organizationId: s.organizationId,
      manual: false,
      periodFrom: startedAt - 86_400_000,
      periodTo: startedAt,
      destinationCount: 1,
      status: 'delivered' as const,
      startedAt,
      endedAt: startedAt + 1000,
    });
    // Inserted out of order.
    for (const at of [NOW + 2000, NOW, NOW + 3000, NOW + 1000]) await repo.insertRun(run(s.id, at));
    await repo.insertRun(run(another.id, NOW + 5000));
    const latest = await repo.recentRuns(s.id, 3);
    expect(latest.map((r) => r.startedAt)).toEqual([NOW + 3000, NOW + 2000, NOW + 1000]);
    expect((await repo.recentRuns(s.id, 10)).every((r) => r.scheduledReportId === s.id)).toBe(true);
  });

  it('two processes claiming one due schedule at once: exactly one gets it, 20 times over', async () => {
    for (let i = 0; i < 20; i++) {
      const s = schedule();
      await new ScheduledReportsRepository(db.database).insert(s);
      const [a, b] = await Promise.all([
        new ScheduledReportsRepository(db.database).claim(s.id, 'a', NOW, NOW + 60_000),
        new ScheduledReportsRepository(other).claim(s.id, 'b', NOW, NOW + 60_000),
      ]);
      expect([a, b].filter((x) => x !== null)).toHaveLength(1);
    }
  });

  it('only the lease holder finishes the run; an expired lease is taken over', async () => {
    const repo = new ScheduledReportsRepository(db.database);
    const s = schedule();
    await repo.insert(s);
    expect(await repo.claim(s.id, 'a', NOW, NOW + 60_000)).not.toBeNull();
    expect(await repo.claim(s.id, 'b', NOW + 59_999, NOW + 120_000)).toBeNull();
    expect(await repo.claim(s.id, 'b', NOW + 60_001, NOW + 120_000)).not.toBeNull();
    const end = { nextRunAt: NOW + 86_400_000, lastRunAt: NOW, consumeRequest: false };
    expect(await repo.finishRun(s.id, 'a', end)).toBe(false);
    expect(await repo.finishRun(s.id, 'b', end)).toBe(true);
    const after = await repo.find(s.organizationId, s.id);
    expect(after).toMatchObject({ nextRunAt: NOW + 86_400_000, lastRunAt: NOW });
    expect(await repo.claim(s.id, 'c', NOW + 120_000, NOW + 180_000)).toBeNull();
  });

  it('counts run-now requests, one consumed per manual run, and a paused schedule runs only when asked', async () => {
    const repo = new ScheduledReportsRepository(db.database);
    const s = schedule({ enabled: false, nextRunAt: NOW - 1 });
    await repo.insert(s);
    expect(await repo.claim(s.id, 'a', NOW, NOW + 1)).toBeNull();
    await repo.requestRun(s.organizationId, s.id);
    await repo.requestRun(s.organizationId, s.id);
    for (let i = 0; i < 2; i++) {
      expect(await repo.claim(s.id, 'a', NOW + i * 10, NOW + i * 10 + 5)).not.toBeNull();
      expect(await repo.finishRun(s.id, 'a', { nextRunAt: null, lastRunAt: NOW, consumeRequest: true })).toBe(true);
    }
    expect(await repo.claim(s.id, 'a', NOW + 100, NOW + 200)).toBeNull();
    expect((await repo.find(s.organizationId, s.id))?.nextRunAt).toBe(NOW - 1);
  });

  it('the next wake-up is the earliest due time, pending request or lease expiry', async () => {
    const fresh = await createTestDatabase(dialect);
    try {
      const repo = new ScheduledReportsRepository(fresh.database);
      expect(await repo.nextWorkAt(NOW)).toBeNull();
      const later = schedule({ nextRunAt: NOW + 3_600_000 });
      await repo.insert(later);
      await repo.insert(schedule({ enabled: false, nextRunAt: NOW + 60_000 }));
      expect(await repo.nextWorkAt(NOW)).toBe(NOW + 3_600_000);
      const leased = schedule({ nextRunAt: NOW - 5 });
      await repo.insert(leased);
      await repo.claim(leased.id, 'a', NOW, NOW + 120_000);
      expect(await repo.nextWorkAt(NOW)).toBe(NOW + 120_001);
      await repo.requestRun(later.organizationId, later.id);
      expect(await repo.nextWorkAt(NOW)).toBe(NOW);
    } finally {
      await fresh.drop();
    }
  });
});
