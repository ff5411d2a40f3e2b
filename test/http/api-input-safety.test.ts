import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestOrg } from '../support/app.ts';
import { testDialects } from '../support/databases.ts';
import { call } from '../api-access/helpers.ts';

/** Inputs no route may take: U+0000 anywhere, and prototype-changing keys in any object of a body. */
describe.each(testDialects())('input safety (%s)', (dialect) => {
  let t: TestApp;
  let o: TestOrg;
  beforeAll(async () => {
    t = await createTestApp({ dialect });
    o = await t.createOrg();
  });
  afterAll(async () => t.close());

  async function keyCount(): Promise<number> {
    return (await call(t, o.apiKey, 'GET', '/api/v1/api-keys?limit=200')).json().data.length;
  }

  /** A body sent as raw JSON text (so escapes like \u0000 and keys like __proto__ arrive as written). */
  function sendRaw(method: string, url: string, json: string) {
    return t.tocsin.app.inject({
      method: method as 'POST',
      url,
      headers: { authorization: `Bearer ${o.apiKey}`, 'content-type': 'application/json' },
      payload: json,
    });
  }

  function expectRefused(res: { statusCode: number; json(): unknown }, field: string): void {
    expect(res.statusCode).toBe(422);
    const { error } = res.json() as { error: { code: string; details: Array<{ field: string; issue: string }> } };
    expect(error.code).toBe('validation_failed');
    expect(error.details.map((d) => d.field)).toContain(field);
  }

  it('refuses U+0000 in any string of a body, naming the field, and stores nothing', async () => {
    const before = await keyCount();
    expectRefused(await sendRaw('POST', '/api/v1/api-keys', '{"name":"a\\u0000b","scopes":["monitors:read"]}'), 'name');
    expectRefused(
      await sendRaw('POST', '/api/v1/api-keys', '{"name":"ok","scopes":["monitors:read"],"environments":["x\\u0000"]}'),
      'environments[0]',
    );
    expectRefused(
      await sendRaw('POST', '/api/v1/monitors', '{"target":"https://a.example.com","tags":["ok","t\\u0000"]}'),
      'tags[1]',
    );
    expectRefused(await sendRaw('POST', '/api/v1/service-accounts', '{"name":"bot\\u0000","role":"member"}'), 'name');
    expectRefused(
      await sendRaw('POST', '/api/v1/auth/organization/members', '{"email":"a\\u0000@example.com","role":"member"}'),
      'email',
    );
    expect(await keyCount()).toBe(before);
  });

  it('refuses U+0000 in a query value (422 naming it) and in a path id (404), heartbeats included', async () => {
    const query = await call(t, o.apiKey, 'GET', '/api/v1/monitors?tag=a%00b');
    expectRefused(query, 'tag');
    const cursor = await call(t, o.apiKey, 'GET', '/api/v1/api-keys?cursor=%00');
    expectRefused(cursor, 'cursor');
    const id = await call(t, o.apiKey, 'GET', '/api/v1/monitors/mon_%00x');
    expect(id.statusCode).toBe(404);
    expect(id.json().error.code).toBe('not_found');
    for (const method of ['GET', 'POST'] as const) {
      const beat = await t.tocsin.app.inject({ method, url: '/api/v1/heartbeats/tok%00en' });
      expect(beat.statusCode, method).toBe(404);
      expect(beat.json().error.code).toBe('not_found');
      expect(beat.json().error.request_id).toBe(beat.headers['x-request-id']);
    }
  });

  it('refuses __proto__, constructor and prototype keys in any object of a body, naming the path', async () => {
    const before = await keyCount();
    expectRefused(
      await sendRaw('POST', '/api/v1/api-keys', '{"name":"p","scopes":["monitors:read"],"__proto__":{"x":1}}'),
      '__proto__',
    );
    expectRefused(
      await sendRaw(
        'POST',
        '/api/v1/api-keys',
        '{"name":"p","scopes":["monitors:read"],"rate_limits":{"constructor":{"prototype":1}}}',
      ),
      'rate_limits.constructor',
    );
    expectRefused(
      await sendRaw(
        'POST',
        '/api/v1/monitors',
        '{"target":"https://a.example.com","config":{"headers":{"__proto__":{"x":"y"}}}}',
      ),
      'config.headers.__proto__',
    );
    expectRefused(
      await sendRaw(
        'POST',
        '/api/v1/monitors',
        '{"target":"https://a.example.com","config":{"headers":{"prototype":"y"}}}',
      ),
      'config.headers.prototype',
    );
    expect(await keyCount()).toBe(before);
    expect((await call(t, o.apiKey, 'GET', '/api/v1/monitors')).json().data).toHaveLength(0);
  });

  it('refuses arrays and objects nested deeper than 64 at the level that goes past it, whatever the depth', async () => {
    const before = await keyCount();
    // 64 levels pass the input walk and reach the schema (which refuses the unknown field); 65 do not.
    const deep = (levels: number) => '{"a":'.repeat(levels - 1) + '{}' + '}'.repeat(levels - 1);
    const atLimit = await sendRaw(
      'POST',
      '/api/v1/api-keys',
      `{"name":"n","scopes":["monitors:read"],"x":${deep(63)}}`,
    );
    expect(atLimit.statusCode).toBe(422);
    expect(JSON.stringify(atLimit.json())).not.toContain('nest');
    const past = await sendRaw('POST', '/api/v1/api-keys', `{"name":"n","scopes":["monitors:read"],"x":${deep(64)}}`);
    expect(past.statusCode).toBe(422);
    expect(past.json().error.details).toEqual([
      { field: `x${'.a'.repeat(63)}`, issue: 'must not nest arrays and objects more than 64 deep' },
    ]);
    for (const levels of [1_000, 1_000_000]) {
      const res = await sendRaw('POST', '/api/v1/api-keys', '['.repeat(levels) + ']'.repeat(levels));
      expect(res.statusCode, `${levels} levels`).toBe(levels > 500_000 ? 413 : 422);
    }
    expect(await keyCount()).toBe(before);
  });
});
