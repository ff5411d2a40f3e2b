/**
 * `GET /monitors?status=…` agrees with the status each monitor shows (DECISIONS §16): `maintenance` lists the unpaused
 * monitors an active window covers (by id or by tag, also one tagged after the window was made), `up`/`down`/`pending`
 * leave them out, `paused` is unchanged; pages through cursors; on SQLite and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, ManualClock, type TestApp } from '../support/app.ts';
import { testDialects } from '../support/databases.ts';
import { at, clientOf } from '../reports/reports.helpers.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies in assertions

describe.each(testDialects())('the monitor list status filter and maintenance on %s', (dialect) => {
  let t: TestApp;
  const clock = new ManualClock('2026-06-01T09:00:00.000Z');

  beforeAll(async () => {
    t = await createTestApp({ dialect, clock });
  });
  afterAll(async () => {
    await t.close();
  });

  it('lists by the status shown, inside and after a window', async () => {
    const c = clientOf(t, await t.createOrg());
    const byId = await c.createMonitor({ name: 'By id' });
    const byTag = await c.createMonitor({ name: 'By tag', tags: ['db'] });
    const pausedTagged = await c.createMonitor({ name: 'Paused tagged', tags: ['db'] });
    const outside = await c.createMonitor({ name: 'Outside', tags: ['web'] });
    const downTagged = await c.createMonitor({ name: 'Down tagged', tags: ['dbx'] });
    const w = await c.call('POST', '/api/v1/maintenance-windows', {
      name: 'Upgrade',
      monitor_ids: [byId],
      tags: ['db'],
      schedule: { type: 'once', starts_at: '2026-06-01T10:00:00Z', ends_at: '2026-06-01T11:00:00Z' },
    });
    expect(w.status).toBe(201);
    for (const id of [byId, byTag, outside]) await c.check(id, 'up', at('2026-06-01T09:30:00Z'));
    await c.check(downTagged, 'down', at('2026-06-01T09:30:00Z'));
    await c.check(downTagged, 'down', at('2026-06-01T09:31:00Z'));
    expect((await c.call('POST', `/api/v1/monitors/${pausedTagged}/pause`)).status).toBe(200);
    // Tagged `db` after the window was made: covered too ('dbx' alone is another tag, not a prefix match).
    expect((await c.call('PATCH', `/api/v1/monitors/${downTagged}`, { tags: ['dbx', 'db'] })).status).toBe(200);

    const list = async (query: string) => {
      const r = await c.call('GET', `/api/v1/monitors?limit=200${query}`);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return (r.body.data as Json[]).map((m) => [m.name, m.status]).sort();
    };

    clock.set('2026-06-01T10:30:00Z');
    expect(await list('&status=maintenance')).toEqual([
      ['By id', 'maintenance'],
      ['By tag', 'maintenance'],
      ['Down tagged', 'maintenance'],
    ]);
    expect(await list('&status=up')).toEqual([['Outside', 'up']]);
    expect(await list('&status=down')).toEqual([]);
    expect(await list('&status=paused')).toEqual([['Paused tagged', 'paused']]);
    // Every monitor, each listed under the filter of the status it shows.
    const all = await list('');
    for (const [name, status] of all) expect(await list(`&status=${status}`)).toContainEqual([name, status]);
    expect(all).toHaveLength(5);
    // With the other filters and through cursors, one a page.
    expect(await list('&status=maintenance&tag=db')).toEqual([
      ['By tag', 'maintenance'],
      ['Down tagged', 'maintenance'],
    ]);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const r: { body: Json } = await c.call(
        'GET',
        `/api/v1/monitors?status=maintenance&limit=1${cursor ? `&cursor=${cursor}` : ''}`,
      );
      seen.push(...(r.body.data as Json[]).map((m) => m.name as string));
      cursor = r.body.next_cursor as string | null;
    } while (cursor);
    expect(seen.sort()).toEqual(['By id', 'By tag', 'Down tagged']);

    clock.set('2026-06-01T11:30:00Z'); // over: stored statuses again
    expect(await list('&status=maintenance')).toEqual([]);
    expect(await list('&status=up')).toEqual([
      ['By id', 'up'],
      ['By tag', 'up'],
      ['Outside', 'up'],
    ]);
    expect(await list('&status=down')).toEqual([['Down tagged', 'down']]);

    const bad = await c.call('GET', '/api/v1/monitors?status=in_maintenance');
    expect(bad.status).toBe(422);
    expect(bad.body.error.details[0].field).toContain('status');
  });
});

describe.each(testDialects())('PATCH config.method by the monitor type on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ dialect });
  });
  afterAll(async () => {
    await t.close();
  });

  it('an http monitor takes an HTTP method (the web editor sends the stored one back), refuses others', async () => {
    const c = clientOf(t, await t.createOrg());
    const http = await c.createMonitor({ name: 'Shop' });
    const ok = await c.call('PATCH', `/api/v1/monitors/${http}`, { config: { method: 'GET', depends_on: [] } });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect((await c.call('PATCH', `/api/v1/monitors/${http}`, { config: { method: 'HEAD' } })).body.config.method).toBe(
      'HEAD',
    );
    const bad = await c.call('PATCH', `/api/v1/monitors/${http}`, { config: { method: 'pkg.Svc/Call' } });
    expect(bad.status).toBe(422);
    expect(bad.body.error.details[0].field).toBe('config.method');
    expect((await c.call('GET', `/api/v1/monitors/${http}`)).body.config.method).toBe('HEAD');
    const grpc = await c.createMonitor({ name: 'Rpc', type: 'grpc', target: 'rpc.example.test:443' });
    const wrong = await c.call('PATCH', `/api/v1/monitors/${grpc}`, { config: { method: 'GET' } });
    expect(wrong.status).toBe(422);
    expect(wrong.body.error.details[0]).toEqual({ field: 'config.method', issue: 'must be package.Service/Method' });
  });
});
