import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDialects, type TestDatabase } from '../../../test/support/databases.ts';
import { ManualClock } from '../../platform/clock.ts';
import { AuditLog } from './audit.service.ts';
import type { AuditOrigin } from './audit.types.ts';

// Beyond 2^32 ms: the bigint column must come back as an exact JS number.
const T0 = Date.parse('2026-11-28T10:00:00.123Z');
const ORIGIN: AuditOrigin = {
  actor: { type: 'key', id: 'key_1', name: 'deploy' },
  ip: '203.0.113.9',
  requestId: 'req_1',
};

for (const dialect of testDialects()) {
  describe(`${dialect}: audit log storage`, () => {
    let db: TestDatabase;
    let clock: ManualClock;
    let audit: AuditLog;
    beforeAll(async () => {
      db = await createTestDatabase(dialect);
      clock = new ManualClock(T0);
      audit = new AuditLog({ database: db.database, clock });
    });
    afterAll(async () => db.drop());

    const change = (organizationId: string, action: string, targetId = 'mon_1') => ({
      organizationId,
      action,
      target: { type: 'monitor', id: targetId },
      before: { name: 'a', headers: { Authorization: 'Bearer abc' } },
      after: { name: 'b', headers: { Authorization: 'Bearer xyz' } },
    });

    it('stores an entry with its actor, masked changes, address and request id, and reads it back exactly', async () => {
      await db.database.transaction((tx) => audit.record(tx, ORIGIN, change('org_a', 'monitor.update')));
      const { data } = await audit.list('org_a', {}, { limit: 10 });
      expect(data).toEqual([
        {
          id: expect.stringMatching(/^aud_/),
          organizationId: 'org_a',
          at: T0,
          actor: ORIGIN.actor,
          action: 'monitor.update',
          target: { type: 'monitor', id: 'mon_1' },
          changes: { name: ['a', 'b'], 'headers.Authorization': ['[redacted]', '[redacted]'] },
          ip: '203.0.113.9',
          requestId: 'req_1',
        },
      ]);
    });

    it('leaves no entry when the change it records rolls back', async () => {
      await expect(
        db.database.transaction(async (tx) => {
          await audit.record(tx, ORIGIN, change('org_rollback', 'monitor.delete'));
          throw new Error('the change failed after its entry was written');
        }),
      ).rejects.toThrow('the change failed');
      expect((await audit.list('org_rollback', {}, { limit: 10 })).data).toEqual([]);
      await db.database.transaction((tx) => audit.record(tx, ORIGIN, change('org_rollback', 'monitor.delete')));
      expect((await audit.list('org_rollback', {}, { limit: 10 })).data).toHaveLength(1);
    });

    it('filters by actor, action, target and time, newest first, in cursor pages', async () => {
      const other: AuditOrigin = { ...ORIGIN, actor: { type: 'user', id: 'usr_2', name: 'Ann' } };
      for (let i = 0; i < 5; i += 1) {
        clock.advance(1000);
        await audit.record(
          db.database,
          i % 2 ? other : ORIGIN,
          change('org_f', i < 3 ? 'monitor.create' : 'monitor.update', `mon_${i}`),
        );
      }
      const all = (await audit.list('org_f', {}, { limit: 10 })).data;
      expect(all.map((e) => e.target.id)).toEqual(['mon_4', 'mon_3', 'mon_2', 'mon_1', 'mon_0']);
      expect((await audit.list('org_f', { actorId: 'usr_2' }, { limit: 10 })).data.map((e) => e.target.id)).toEqual([
        'mon_3',
        'mon_1',
      ]);
      expect((await audit.list('org_f', { action: 'monitor.update' }, { limit: 10 })).data).toHaveLength(2);
      expect(
        (await audit.list('org_f', { targetType: 'monitor', targetId: 'mon_2' }, { limit: 10 })).data,
      ).toHaveLength(1);
      expect((await audit.list('org_f', { targetType: 'incident' }, { limit: 10 })).data).toEqual([]);
      const from = all[3]!.at;
      const to = all[1]!.at;
      expect((await audit.list('org_f', { from, to }, { limit: 10 })).data.map((e) => e.target.id)).toEqual([
        'mon_2',
        'mon_1',
      ]);
      const first = await audit.list('org_f', {}, { limit: 2 });
      const second = await audit.list('org_f', {}, { limit: 2, cursor: first.next_cursor! });
      const third = await audit.list('org_f', {}, { limit: 2, cursor: second.next_cursor! });
      expect([...first.data, ...second.data, ...third.data].map((e) => e.id)).toEqual(all.map((e) => e.id));
      expect(third.next_cursor).toBeNull();
    });

    it('exports CSV in pages, newest first, with formula-like cells neutralised', async () => {
      const evil: AuditOrigin = { ...ORIGIN, actor: { type: 'key', id: 'key_e', name: '=cmd|" /C calc"!A0' } };
      await audit.record(db.database, evil, change('org_csv', '+danger'));
      let text = '';
      for await (const chunk of audit.exportCsv('org_csv', {})) text += chunk;
      const lines = text
        .replace(/^\uFEFF/, '')
        .trimEnd()
        .split('\r\n');
      expect(lines).toHaveLength(2);
      expect(lines[1]).toContain(`,"'=cmd|"" /C calc""!A0","'+danger",monitor,mon_1,`);
    });
  });
}
