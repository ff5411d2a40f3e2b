import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, ManualClock, type TestApp } from '../support/app.ts';
import { testDialects } from '../support/databases.ts';
import { startHttpTarget, type RunningTarget } from '../support/targets/index.ts';
import { rows } from './engine.helpers.ts';

const STEP_MS = 100;

describe.each(testDialects())('checks of one monitor are never closer than its interval on %s', (dialect) => {
  let t: TestApp;
  let clock: ManualClock;
  let target: RunningTarget;

  beforeAll(async () => {
    // An instant that is not a multiple of 5 s or 15 s, so creation does not fall on a slot by chance.
    clock = new ManualClock(Date.parse('2026-03-01T10:00:00.000Z') + 1_234);
    t = await createTestApp({ dialect, clock });
    target = await startHttpTarget((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('ok');
    });
  });
  afterAll(async () => {
    await target.close();
    await t.close();
  });

  /** Scheduler rounds every 100 ms for `ms` (the engine keeps up: a check starts on the first round at or after its slot). */
  const rounds = async (ms: number) => {
    for (let elapsed = 0; elapsed < ms; elapsed += STEP_MS) {
      await t.tocsin.services.checks.localRunner.runOnce();
      clock.advance(STEP_MS);
    }
  };

  it('15 s and 5 s monitors: the first check comes within 5 s, and every later one at least one interval after the previous', async () => {
    const org = await t.createOrg();
    const ids = new Map<string, { intervalMs: number; createdAt: number }>();
    for (const interval of [15, 15, 15, 5, 5, 5]) {
      const res = await t.tocsin.app.inject({
        method: 'POST',
        url: '/api/v1/monitors',
        headers: bearer(org.apiKey),
        payload: { target: target.url, interval_seconds: interval, config: { failure_threshold: 2 } },
      });
      expect(res.statusCode).toBe(201);
      ids.set(res.json<{ id: string }>().id, { intervalMs: interval * 1000, createdAt: clock.now() });
      await rounds(700); // creations spread over a few seconds, as from a user
    }
    await rounds(120_000);
    for (const [id, { intervalMs, createdAt }] of ids) {
      const starts = (
        await rows<{ started_at: number | string }>(
          t.tocsin.database,
          'select e.started_at from execution e join monitor_key m on m.id = e.monitor_key where m.monitor_id = ? order by e.started_at',
          [id],
        )
      ).map((r) => Number(r.started_at));
      expect(starts.length).toBeGreaterThanOrEqual(Math.floor(115_000 / intervalMs));
      expect(starts[0]! - createdAt).toBeLessThan(5_000 + STEP_MS);
      const gaps = starts.slice(1).map((s, i) => s - starts[i]!);
      expect(Math.min(...gaps), `${id} every ${intervalMs} ms: ${gaps.join(', ')}`).toBeGreaterThanOrEqual(intervalMs);
      // …and no slot is skipped either.
      expect(Math.max(...gaps), `${id} every ${intervalMs} ms: ${gaps.join(', ')}`).toBeLessThan(intervalMs + STEP_MS);
    }
  });
});
