import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, ManualClock, type TestApp } from '../support/app.ts';
import { testDialects } from '../support/databases.ts';
import { call, errorCode } from '../api-access/helpers.ts';

describe.each(testDialects())('Idempotency-Key (%s)', (dialect) => {
  let t: TestApp;
  const clock = new ManualClock('2026-11-22T10:00:00.000Z');
  /**
   * Lets a test hold a create inside its handler, or make it fail. It runs before the monitor's transaction
   * opens: on SQLite a transaction held open would keep every other request (and its idempotency row) waiting.
   */
  let beforeCreate: (() => Promise<void>) | null = null;
  beforeAll(async () => {
    t = await createTestApp({ dialect, clock });
    const monitors = t.tocsin.services.monitors;
    const create = monitors.create.bind(monitors);
    monitors.create = async (...args: Parameters<typeof create>) => {
      if (beforeCreate) await beforeCreate();
      return create(...args);
    };
  });
  afterAll(async () => t.close());

  async function monitorCount(key: string): Promise<number> {
    return (await call(t, key, 'GET', '/api/v1/monitors?limit=200')).json().data.length;
  }

  it('replays the stored status and body and runs nothing again', async () => {
    const o = await t.createOrg();
    const body = { target: 'https://a.example.com', tags: ['x'] };
    const first = await call(t, o.apiKey, 'POST', '/api/v1/monitors', { body, headers: { 'idempotency-key': 'k1' } });
    expect(first.statusCode).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    // Same body with keys in another order is the same request.
    const again = await call(t, o.apiKey, 'POST', '/api/v1/monitors', {
      body: { tags: ['x'], target: 'https://a.example.com' },
      headers: { 'idempotency-key': 'k1' },
    });
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.headers['content-type']).toContain('application/json');
    expect(again.json()).toEqual(first.json());
    expect(await monitorCount(o.apiKey)).toBe(1);
    // Errors after execution began are stored too (4xx), and replayed.
    const bad = await call(t, o.apiKey, 'POST', '/api/v1/monitors', {
      body: { target: 'not a url' },
      headers: { 'idempotency-key': 'k2' },
    });
    expect(bad.statusCode).toBe(422);
    const badAgain = await call(t, o.apiKey, 'POST', '/api/v1/monitors', {
      body: { target: 'not a url' },
      headers: { 'idempotency-key': 'k2' },
    });
    expect(badAgain.statusCode).toBe(422);
    expect(badAgain.headers['idempotent-replayed']).toBe('true');
    // DELETE and action routes too.
    const id = first.json().id as string;
    const del = await call(t, o.apiKey, 'DELETE', `/api/v1/monitors/${id}`, { headers: { 'idempotency-key': 'd1' } });
    expect(del.statusCode).toBe(204);
    const delAgain = await call(t, o.apiKey, 'DELETE', `/api/v1/monitors/${id}`, {
      headers: { 'idempotency-key': 'd1' },
    });
    expect(delAgain.statusCode).toBe(204);
    expect(delAgain.headers['idempotent-replayed']).toBe('true');
  });

  it('refuses the key with another method, path or body (422 idempotency_key_mismatch)', async () => {
    const o = await t.createOrg();
    const m = (
      await call(t, o.apiKey, 'POST', '/api/v1/monitors', {
        body: { target: 'https://b.example.com' },
        headers: { 'idempotency-key': 'same' },
      })
    ).json();
    const otherBody = await call(t, o.apiKey, 'POST', '/api/v1/monitors', {
      body: { target: 'https://c.example.com' },
      headers: { 'idempotency-key': 'same' },
    });
    expect(otherBody.statusCode).toBe(422);
    expect(errorCode(otherBody)).toBe('idempotency_key_mismatch');
    const otherPath = await call(t, o.apiKey, 'POST', `/api/v1/monitors/${m.id}/pause`, {
      headers: { 'idempotency-key': 'same' },
    });
    expect(errorCode(otherPath)).toBe('idempotency_key_mismatch');
    const otherMethod = await call(t, o.apiKey, 'DELETE', `/api/v1/monitors`, {
      headers: { 'idempotency-key': 'same' },
    });
    expect(otherMethod.statusCode).toBe(405);
    expect(await monitorCount(o.apiKey)).toBe(1);
  });

  it('validates the header: 1..255 printable ASCII', async () => {
    const o = await t.createOrg();
    for (const bad of ['', 'x'.repeat(256), 'tab\there']) {
      const res = await call(t, o.apiKey, 'POST', '/api/v1/monitors', {
        body: { target: 'https://d.example.com' },
        headers: { 'idempotency-key': bad },
      });
      expect(res.statusCode, JSON.stringify(bad)).toBe(422);
      expect(res.json().error.details[0].field).toBe('Idempotency-Key');
    }
    const ok = await call(t, o.apiKey, 'POST', '/api/v1/monitors', {
      body: { target: 'https://d.example.com' },
      headers: { 'idempotency-key': 'x'.repeat(255) },
    });
    expect(ok.statusCode).toBe(201);
    expect(await monitorCount(o.apiKey)).toBe(1);
  });

  it('is scoped to the organization', async () => {
    const a = await t.createOrg();
    const b = await t.createOrg();
    const ra = await call(t, a.apiKey, 'POST', '/api/v1/monitors', {
      body: { target: 'https://e.example.com' },
      headers: { 'idempotency-key': 'shared' },
    });
    const rb = await call(t, b.apiKey, 'POST', '/api/v1/monitors', {
      body: { target: 'https://e.example.com' },
      headers: { 'idempotency-key': 'shared' },
    });
    expect(rb.statusCode).toBe(201);
    expect(rb.headers['idempotent-replayed']).toBeUndefined();
    expect(rb.json().id).not.toBe(ra.json().id);
  });

  it("is scoped to the key: another key of the organization never gets the first key's stored response", async () => {
    const o = await t.createOrg();
    const other = (
      await call(t, o.apiKey, 'POST', '/api/v1/api-keys', {
        body: { name: 'other', scopes: ['keys:write', 'monitors:read'], environments: ['staging'] },
      })
    ).json() as { key: string };
    const body = { name: 'made-twice', scopes: ['monitors:read'], environments: ['staging'] };
    const first = await call(t, o.apiKey, 'POST', '/api/v1/api-keys', { body, headers: { 'idempotency-key': 'same' } });
    expect(first.statusCode).toBe(201);
    const second = await call(t, other.key, 'POST', '/api/v1/api-keys', {
      body,
      headers: { 'idempotency-key': 'same' },
    });
    expect(second.statusCode).toBe(201);
    expect(second.headers['idempotent-replayed']).toBeUndefined();
    expect(second.json().id).not.toBe(first.json().id);
    expect(second.json().key).toMatch(/^tsk_/);
    // Each key still replays its own.
    const again = await call(t, other.key, 'POST', '/api/v1/api-keys', {
      body,
      headers: { 'idempotency-key': 'same' },
    });
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json().id).toBe(second.json().id);
  });

  it('answers 409 idempotency_in_progress while the first request runs', async () => {
    const o = await t.createOrg();
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let entered!: () => void;
    const inHandler = new Promise<void>((r) => (entered = r));
    beforeCreate = async () => {
      entered();
      await held;
    };
    const body = { target: 'https://f.example.com' };
    const first = call(t, o.apiKey, 'POST', '/api/v1/monitors', { body, headers: { 'idempotency-key': 'slow' } });
    await inHandler;
    beforeCreate = null;
    const second = await call(t, o.apiKey, 'POST', '/api/v1/monitors', {
      body,
      headers: { 'idempotency-key': 'slow' },
    });
    expect(second.statusCode).toBe(409);
    expect(errorCode(second)).toBe('idempotency_in_progress');
    release();
    expect((await first).statusCode).toBe(201);
    const third = await call(t, o.apiKey, 'POST', '/api/v1/monitors', { body, headers: { 'idempotency-key': 'slow' } });
    expect(third.headers['idempotent-replayed']).toBe('true');
    expect(await monitorCount(o.apiKey)).toBe(1);
  });

  it('parallel requests with one key create one monitor', async () => {
    const o = await t.createOrg();
    const body = { target: 'https://g.example.com' };
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        call(t, o.apiKey, 'POST', '/api/v1/monitors', { body, headers: { 'idempotency-key': 'par' } }),
      ),
    );
    const statuses = results.map((r) => r.statusCode);
    expect(statuses.every((s) => s === 201 || s === 409)).toBe(true);
    const created = results.filter((r) => r.statusCode === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(new Set(created.map((r) => r.json().id)).size).toBe(1);
    expect(await monitorCount(o.apiKey)).toBe(1);
  });

  it('does not store responses ≥ 500: the retry runs again', async () => {
    const o = await t.createOrg();
    beforeCreate = async () => {
      beforeCreate = null;
      throw new Error('boom');
    };
    const body = { target: 'https://h.example.com' };
    const failed = await call(t, o.apiKey, 'POST', '/api/v1/monitors', {
      body,
      headers: { 'idempotency-key': 'retry' },
    });
    expect(failed.statusCode).toBe(500);
    const retried = await call(t, o.apiKey, 'POST', '/api/v1/monitors', {
      body,
      headers: { 'idempotency-key': 'retry' },
    });
    expect(retried.statusCode).toBe(201);
    expect(retried.headers['idempotent-replayed']).toBeUndefined();
  });

  it('never stores a key value: a replayed create or rotate lacks `key`', async () => {
    const o = await t.createOrg();
    const body = { name: 'idem', scopes: ['monitors:read'] };
    const first = await call(t, o.apiKey, 'POST', '/api/v1/api-keys', { body, headers: { 'idempotency-key': 'mk' } });
    expect(first.json().key).toMatch(/^tsk_/);
    const again = await call(t, o.apiKey, 'POST', '/api/v1/api-keys', { body, headers: { 'idempotency-key': 'mk' } });
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json().key).toBeUndefined();
    expect(again.json().id).toBe(first.json().id);
    const list = await call(t, o.apiKey, 'GET', '/api/v1/api-keys');
    expect(list.json().data).toHaveLength(2);
  });

  it('keeps keys 24 h; the purge role deletes expired rows in chunks', async () => {
    const o = await t.createOrg();
    const body = { target: 'https://i.example.com' };
    const first = await call(t, o.apiKey, 'POST', '/api/v1/monitors', { body, headers: { 'idempotency-key': 'old' } });
    clock.advance(24 * 3600_000 - 1000);
    const within = await call(t, o.apiKey, 'POST', '/api/v1/monitors', { body, headers: { 'idempotency-key': 'old' } });
    expect(within.headers['idempotent-replayed']).toBe('true');
    clock.advance(2000);
    const after = await call(t, o.apiKey, 'POST', '/api/v1/monitors', { body, headers: { 'idempotency-key': 'old' } });
    expect(after.statusCode).toBe(201);
    expect(after.json().id).not.toBe(first.json().id);
    clock.advance(25 * 3600_000);
    const purged = await t.tocsin.services.apiAccess.idempotency.purgeExpired(2);
    expect(purged).toBeGreaterThan(0);
    expect(await t.tocsin.services.apiAccess.idempotency.purgeExpired(2)).toBe(0);
  });

  it('ignores the header on reads', async () => {
    const o = await t.createOrg();
    const r1 = await call(t, o.apiKey, 'GET', '/api/v1/monitors', { headers: { 'idempotency-key': 'g' } });
    const r2 = await call(t, o.apiKey, 'GET', '/api/v1/monitors', { headers: { 'idempotency-key': 'g' } });
    expect(r1.statusCode).toBe(200);
    expect(r2.headers['idempotent-replayed']).toBeUndefined();
  });
});
