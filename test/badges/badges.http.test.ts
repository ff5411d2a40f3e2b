/**
 * Monitor badges (DECISIONS §18) on SQLite and PostgreSQL: a token per monitor, created, read back, rotated and
 * revoked (audited, the token never in the log); the public status, uptime (N days) and response-time badges as SVG
 * and as shields.io endpoint JSON (validated against shields' documented schema); one 404 for every unknown,
 * malformed or revoked token; 422 for days out of range; the page badge.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { at, clientOf } from '../reports/reports.helpers.ts';
import { createTestApp, ManualClock, type TestApp } from '../support/app.ts';
import { testDialects } from '../support/databases.ts';
import { SHIELDS_ENDPOINT_SCHEMA } from './shields-endpoint.schema.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies in assertions

const validateShields = new Ajv2020({ strict: false, allErrors: true }).compile(SHIELDS_ENDPOINT_SCHEMA);
const NAME = `Shop <b>"&'`;

describe.each(testDialects())('monitor badges on %s', (dialect) => {
  let t: TestApp;
  const clock = new ManualClock('2026-06-01T00:00:00.000Z');

  beforeAll(async () => {
    t = await createTestApp({ dialect, clock });
  });
  afterAll(async () => {
    await t.close();
  });

  const get = (url: string) => t.tocsin.app.inject({ method: 'GET', url });
  const path = (url: string) => new URL(url).pathname + new URL(url).search;
  async function shields(url: string): Promise<Json> {
    const res = await get(url);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['cache-control']).toBe('public, max-age=60');
    expect(res.headers['access-control-allow-origin']).toBe('*');
    const body = res.json() as Json;
    expect(validateShields(body), JSON.stringify(validateShields.errors)).toBe(true);
    return body;
  }

  it('shows status, uptime over N days and response time, as SVG and shields.io JSON', async () => {
    clock.set('2026-06-01T00:00:00Z');
    const c = clientOf(t, await t.createOrg());
    const shop = await c.createMonitor({ name: NAME });
    await c.check(shop, 'up', at('2026-06-01T00:00:00Z'), 'local', 100);
    await c.check(shop, 'down', at('2026-06-10T00:00:00Z'));
    await c.check(shop, 'down', at('2026-06-10T00:01:00Z'));
    await c.check(shop, 'up', at('2026-06-10T02:24:00Z'), 'local', 250);
    await c.check(shop, 'up', at('2026-06-10T12:00:00Z'), 'local', 350);
    await c.check(shop, 'up', at('2026-06-10T13:00:00Z'), 'local', 450);
    clock.set('2026-06-11T00:00:00Z');

    const created = await c.call('POST', `/api/v1/monitors/${shop}/badge`);
    expect(created.status).toBe(201);
    const token = created.body.token as string;
    expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const base = `${t.tocsin.config.publicUrl}/badge/${token}`;
    expect(created.body).toEqual({
      token,
      monitor_id: shop,
      created_at: '2026-06-11T00:00:00.000Z',
      urls: {
        status_svg: `${base}/status.svg`,
        status_json: `${base}/status.json`,
        uptime_svg: `${base}/uptime.svg`,
        uptime_json: `${base}/uptime.json`,
        response_time_svg: `${base}/response-time.svg`,
        response_time_json: `${base}/response-time.json`,
      },
    });
    expect((await c.call('GET', `/api/v1/monitors/${shop}/badge`)).body).toEqual(created.body);

    const urls = created.body.urls as Record<string, string>;
    expect(await shields(path(urls.status_json!))).toEqual({
      schemaVersion: 1,
      label: NAME,
      message: 'up',
      color: 'brightgreen',
    });
    // Down 2 h 24 min on the 10th: 90 % of its last day, 98.57 % of 7 days, 99 % of the 10 days it existed.
    expect(await shields(path(`${urls.uptime_json}?days=1`))).toMatchObject({
      label: 'uptime 1d',
      message: '90%',
      color: 'orange',
    });
    expect(await shields(path(`${urls.uptime_json}?days=7`))).toMatchObject({
      label: 'uptime 7d',
      message: '98.57%',
      color: 'yellowgreen',
    });
    expect(await shields(path(urls.uptime_json!))).toMatchObject({
      label: 'uptime 30d',
      message: '99%',
      color: 'green',
    });
    // The last 24 h: successful checks of 250, 350 and 450 ms; the median comes from the rollups' latency
    // sketch (about 1 % relative error), as the history's p50 does.
    const latency = await shields(path(urls.response_time_json!));
    expect(latency).toMatchObject({ label: 'response time', color: 'green' });
    expect(latency.message).toMatch(/^3[45]\d ms$/);
    expect(Math.abs(Number.parseInt(latency.message, 10) - 350)).toBeLessThanOrEqual(4);

    const svg = await get(path(urls.status_svg!));
    expect(svg.statusCode).toBe(200);
    expect(svg.headers['content-type']).toBe('image/svg+xml; charset=utf-8');
    expect(svg.headers['cache-control']).toBe('public, max-age=60');
    expect(svg.headers['content-security-policy']).toBe("default-src 'none'");
    expect(svg.headers['x-content-type-options']).toBe('nosniff');
    expect(svg.headers['access-control-allow-origin']).toBe('*');
    expect(svg.body).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="\d+" height="20" role="img"/);
    expect(svg.body).toContain('aria-label="Shop &lt;b&gt;&quot;&amp;&apos;: up"');
    expect(svg.body).toContain('<title>Shop &lt;b&gt;&quot;&amp;&apos;: up</title>');
    expect(svg.body).not.toContain('<b>');
    for (const file of [urls.uptime_svg, `${urls.uptime_svg}?days=7`, urls.response_time_svg]) {
      const res = await get(path(file!));
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('image/svg+xml; charset=utf-8');
    }
    expect((await get(path(`${urls.uptime_svg}?days=7`))).body).toContain('<title>uptime 7d: 98.57%</title>');

    // Days out of range, not a number, or given to a badge that has no days: 422 naming the field.
    for (const file of [
      `${urls.uptime_json}?days=0`,
      `${urls.uptime_svg}?days=366`,
      `${urls.uptime_json}?days=ten`,
      `${urls.status_svg}?days=7`,
    ]) {
      const res = await get(path(file));
      expect(res.statusCode, file).toBe(422);
      expect(res.json().error.details.map((d: Json) => d.field)).toEqual(['days']);
    }
  });

  it('rotates and revokes tokens, audited without the token; every unknown token is the same 404', async () => {
    clock.set('2026-06-12T00:00:00Z');
    const org = await t.createOrg();
    const c = clientOf(t, org);
    const shop = await c.createMonitor({ name: 'Shop' });
    expect((await c.call('GET', `/api/v1/monitors/${shop}/badge`)).status).toBe(404);
    const first = (await c.call('POST', `/api/v1/monitors/${shop}/badge`)).body.token as string;
    const second = (await c.call('POST', `/api/v1/monitors/${shop}/badge`)).body.token as string;
    expect(second).not.toBe(first);
    expect((await get(`/badge/${second}/status.json`)).json()).toMatchObject({ label: 'Shop', message: 'pending' });

    const notFound = async (url: string) => {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      const { request_id: _id, ...error } = res.json().error;
      return { type: res.headers['content-type'], error };
    };
    const expected = await notFound(`/badge/${first}/status.svg`); // rotated away
    expect(expected.error).toEqual({ code: 'not_found', message: 'Badge not found.' });
    for (const url of [
      `/badge/${'A'.repeat(32)}/status.svg`, // never existed
      '/badge/x/status.svg', // malformed
      `/badge/${second}/favicon.svg`, // a real token, a file that is not a badge
      `/badge/${second}/status.png`,
    ])
      expect(await notFound(url)).toEqual(expected);

    // Another organization cannot read, rotate or revoke it.
    const other = clientOf(t, await t.createOrg());
    for (const method of ['GET', 'POST', 'DELETE'] as const)
      expect((await other.call(method, `/api/v1/monitors/${shop}/badge`)).status).toBe(404);
    expect((await get(`/badge/${second}/status.json`)).statusCode).toBe(200);

    expect((await c.call('DELETE', `/api/v1/monitors/${shop}/badge`)).status).toBe(204);
    expect(await notFound(`/badge/${second}/status.svg`)).toEqual(expected);
    expect((await c.call('GET', `/api/v1/monitors/${shop}/badge`)).status).toBe(404);
    expect((await c.call('DELETE', `/api/v1/monitors/${shop}/badge`)).status).toBe(404);

    const audit = t.tocsin.services.audit;
    const created = await audit.list(org.organizationId, { action: 'monitor_badge.create' }, { limit: 10 });
    const revoked = await audit.list(org.organizationId, { action: 'monitor_badge.revoke' }, { limit: 10 });
    expect(created.data).toHaveLength(2);
    expect(revoked.data).toHaveLength(1);
    const logged = JSON.stringify([created.data, revoked.data]);
    expect(logged).not.toContain(first);
    expect(logged).not.toContain(second);
    expect(logged).toContain(shop);

    // Rotations at the same moment all succeed; one token stands, the one the API reads back.
    const racing = await Promise.all(Array.from({ length: 5 }, () => c.call('POST', `/api/v1/monitors/${shop}/badge`)));
    expect(racing.map((r) => r.status)).toEqual([201, 201, 201, 201, 201]);
    const standing = (await c.call('GET', `/api/v1/monitors/${shop}/badge`)).body.token as string;
    const working = [];
    for (const r of racing)
      if ((await get(`/badge/${r.body.token}/status.json`)).statusCode === 200) working.push(r.body.token);
    expect(working).toEqual([standing]);

    // A deleted monitor takes its badge with it.
    const third = (await c.call('POST', `/api/v1/monitors/${shop}/badge`)).body.token as string;
    expect((await c.call('DELETE', `/api/v1/monitors/${shop}`)).status).toBe(204);
    expect(await notFound(`/badge/${third}/uptime.json`)).toEqual(expected);
  });

  it("shows a page's state on its badge", async () => {
    clock.set('2026-06-13T00:00:00Z');
    const c = clientOf(t, await t.createOrg());
    const a = await c.createMonitor({ name: 'A' });
    const b = await c.createMonitor({ name: 'B' });
    await c.check(a, 'up', at('2026-06-13T00:00:00Z'));
    await c.check(b, 'up', at('2026-06-13T00:00:00Z'));
    const slug = `badge-page-${dialect}`;
    expect(
      (await c.call('POST', '/api/v1/status-pages', { slug, title: 'Acme & Co', monitor_ids: [a, b] })).status,
    ).toBe(201);
    expect(await shields(`/status/${slug}/badge.json`)).toEqual({
      schemaVersion: 1,
      label: 'Acme & Co',
      message: 'operational',
      color: 'brightgreen',
    });
    await c.check(a, 'down', at('2026-06-13T00:01:00Z'));
    await c.check(a, 'down', at('2026-06-13T00:02:00Z'));
    expect(await shields(`/status/${slug}/badge.json`)).toMatchObject({ message: 'partial outage', color: 'orange' });
    const svg = await get(`/status/${slug}/badge.svg`);
    expect(svg.statusCode).toBe(200);
    expect(svg.headers['content-type']).toBe('image/svg+xml; charset=utf-8');
    expect(svg.body).toContain('<title>Acme &amp; Co: partial outage</title>');
    await c.check(b, 'down', at('2026-06-13T00:01:00Z'));
    await c.check(b, 'down', at('2026-06-13T00:02:00Z'));
    expect(await shields(`/status/${slug}/badge.json`)).toMatchObject({ message: 'major outage', color: 'red' });
  });
});
