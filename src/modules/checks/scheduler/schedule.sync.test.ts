import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDialects, type TestDatabase } from '../../../../test/support/databases.ts';
import { sampleMonitor } from '../../../../test/support/monitors.ts';
import { ManualClock } from '../../../platform/clock.ts';
import { createLogger } from '../../../platform/logger.ts';
import type { Monitor } from '../../monitors/index.ts';
import { ScheduleRepository } from './schedule.repository.ts';
import { scheduleEntriesOf, ScheduleSync } from './schedule.sync.ts';

const T0 = Date.parse('2026-11-29T12:00:00.000Z');

describe.each(testDialects())('schedule sync of paused monitors on %s', (dialect) => {
  let db: TestDatabase;
  let monitors: Monitor[];
  let sync: ScheduleSync;
  const rowsOf = async (id: string) => (await new ScheduleRepository(db.database).get(id, 'local')) !== null;

  beforeAll(async () => {
    db = await createTestDatabase(dialect);
    monitors = [];
    sync = new ScheduleSync({
      database: db.database,
      clock: new ManualClock(T0),
      logger: createLogger({ level: 'silent', pretty: false }),
      listActive: async (afterId, limit) =>
        monitors
          .filter((m) => !m.paused && (afterId === undefined || m.id > afterId))
          .sort((a, b) => (a.id < b.id ? -1 : 1))
          .slice(0, limit),
    });
  });
  afterAll(async () => db.drop());

  it('pausing removes the schedule rows; a resume writes them again', async () => {
    const active = sampleMonitor('org_x', T0);
    monitors.push(active);
    await db.database.transaction((tx) => sync.monitorSaved(tx, active, null));
    expect(await rowsOf(active.id)).toBe(true);
    const paused = { ...active, paused: true, status: 'paused' as const };
    await db.database.transaction((tx) => sync.monitorSaved(tx, paused, active));
    expect(await rowsOf(active.id)).toBe(false);
    await db.database.transaction((tx) => sync.monitorSaved(tx, { ...active, status: 'pending' }, paused));
    expect(await rowsOf(active.id)).toBe(true);
  });

  it("an edit of a paused monitor writes nothing, and the start's reconcile removes a row a paused monitor has", async () => {
    const paused = sampleMonitor('org_x', T0, { paused: true, status: 'paused' });
    monitors.push(paused);
    // The row a reconcile upserts from a page read just before the pause committed (the only way one can exist).
    await new ScheduleRepository(db.database).upsert(scheduleEntriesOf({ ...paused, paused: false }, T0));
    await db.database.transaction((tx) => sync.monitorSaved(tx, { ...paused, name: 'edited' }, paused));
    expect(await rowsOf(paused.id)).toBe(true);
    const done = await sync.reconcile();
    expect(done.removed).toBe(1);
    expect(await rowsOf(paused.id)).toBe(false);
    // The active monitors keep theirs.
    expect(await rowsOf(monitors[0]!.id)).toBe(true);
  });
});
