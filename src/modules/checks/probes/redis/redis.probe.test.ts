import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipWithout, testServices } from '../../../../../test/support/services.ts';
import {
  closedPort,
  generateCertificate,
  generateTestCa,
  startRedisServer,
  startSilentTarget,
  type Pem,
  type RedisServerTarget,
  type TcpTarget,
} from '../../../../../test/support/targets/index.ts';
import { createProbeRegistry } from '../index.ts';
import type { ProbeContext, ProbeTarget } from '../index.ts';
import { commandWords } from './redis.probe.ts';

const registry = createProbeRegistry();
const ctx: ProbeContext = { now: () => Date.now(), allowPrivateTargets: true };
const key = `tocsin:probe:${randomBytes(4).toString('hex')}`;

const probe = (target: string, config: Record<string, unknown> = {}): ProbeTarget => ({
  id: 'mon_redis',
  type: 'redis',
  target,
  interval_seconds: 60,
  config: { timeout_ms: 5000, ...config },
});

describe('redis command words', () => {
  it('splits on spaces and keeps quoted words whole', () => {
    expect(commandWords('GET  a:b')).toEqual(['GET', 'a:b']);
    expect(commandWords('SET k "two words" x')).toEqual(['SET', 'k', 'two words', 'x']);
    expect(commandWords('ECHO "say \\"hi\\""')).toEqual(['ECHO', 'say "hi"']);
    expect(commandWords('   ')).toEqual([]);
  });
});

describe.skipIf(skipWithout('redis'))('redis probe (the run’s Redis, no password)', () => {
  let server = '127.0.0.1:6379';
  let admin: Redis;
  beforeAll(async () => {
    const url = new URL(testServices.redisUrl!);
    server = `${url.hostname}:${url.port || 6379}`;
    admin = new Redis(testServices.redisUrl!);
    await admin.set(key, 'green');
  });
  afterAll(async () => {
    await admin.del(key);
    admin.disconnect();
  });

  it('is up on PING when no command is set, with the phases timed', async () => {
    const obs = await registry.run(probe(server), ctx);
    expect(obs).toMatchObject({ status: 'up', error: null, details: { remote_address: '127.0.0.1', auth_ms: null } });
    expect(obs.timings.connect_ms).toBeGreaterThanOrEqual(0);
    expect(obs.details!.query_ms).toBeGreaterThanOrEqual(0);
    const pong = await registry.run(probe(server, { expected_value: 'PONG' }), ctx);
    expect(pong.status).toBe('up');
  });

  it('compares a GET with the expected value', async () => {
    const up = await registry.run(probe(server, { query: `GET ${key}`, expected_value: 'green' }), ctx);
    expect(up).toMatchObject({ status: 'up', error: null });
    const down = await registry.run(probe(server, { query: `GET ${key}`, expected_value: 'blue' }), ctx);
    expect(down).toMatchObject({
      status: 'down',
      error: { code: 'unexpected_value', message: 'expected "blue", got "green"' },
    });
    const missing = await registry.run(probe(server, { query: `GET ${key}:none`, expected_value: 'x' }), ctx);
    expect(missing.error).toMatchObject({ code: 'unexpected_value', message: 'expected "x", got no value' });
  });

  it('selects the database given', async () => {
    const obs = await registry.run(probe(server, { database: '1', query: `EXISTS ${key}`, expected_value: '0' }), ctx);
    expect(obs).toMatchObject({ status: 'up', error: null });
  });

  it('is down with query_error on an unknown command', async () => {
    const obs = await registry.run(probe(server, { query: 'NOSUCHCOMMAND x' }), ctx);
    expect(obs).toMatchObject({ status: 'down', error: { code: 'query_error' } });
    expect(obs.error!.message).toContain('unknown command');
  });

  it('is down with connect_refused on a closed port', async () => {
    const obs = await registry.run(probe(`127.0.0.1:${await closedPort()}`), ctx);
    expect(obs).toMatchObject({ status: 'down', error: { code: 'connect_refused' } });
  });

  describe('a server that never answers', () => {
    let silent: TcpTarget;
    beforeAll(async () => {
      silent = await startSilentTarget();
    });
    afterAll(async () => {
      await silent.close();
    });

    it('is down with timeout after timeout_ms, and the connection is closed', async () => {
      const obs = await registry.run(probe(silent.target, { timeout_ms: 300 }), ctx);
      expect(obs).toMatchObject({ status: 'down', error: { code: 'timeout' } });
      await expect.poll(() => silent.open!()).toBe(0);
    });
  });
});

describe.skipIf(skipWithout('redis-server'))('redis probe (a redis-server of its own)', () => {
  describe('with requirepass', () => {
    let server: RedisServerTarget;
    beforeAll(async () => {
      server = await startRedisServer({ requirepass: 'right-Pa55' });
    });
    afterAll(async () => {
      await server.close();
    });

    it('is up with the right password, auth timed', async () => {
      const obs = await registry.run(probe(server.target, { password: 'right-Pa55', expected_value: 'PONG' }), ctx);
      expect(obs).toMatchObject({ status: 'up', error: null });
      expect(obs.details!.auth_ms).toBeGreaterThanOrEqual(0);
    });

    it('is down with auth_failed on a wrong password, never showing it', async () => {
      const obs = await registry.run(probe(server.target, { password: 'wrong-Pa55' }), ctx);
      expect(obs.status).toBe('down');
      expect(obs.error!.code).toBe('auth_failed');
      expect(JSON.stringify(obs)).not.toContain('wrong-Pa55');
    });

    it('is down with auth_failed without a password (NOAUTH)', async () => {
      const obs = await registry.run(probe(server.target), ctx);
      expect(obs.status).toBe('down');
      expect(obs.error!.code).toBe('auth_failed');
      expect(obs.error!.message).toContain('NOAUTH');
    });

    it('leaves no connection open after checks', async () => {
      await registry.run(probe(server.target, { password: 'right-Pa55' }), ctx);
      await registry.run(probe(server.target, { password: 'wrong' }), ctx);
      const admin = new Redis({ port: server.port, host: '127.0.0.1', password: 'right-Pa55' });
      try {
        // Only this admin connection is left.
        await expect
          .poll(
            async () =>
              String(await admin.call('CLIENT', 'LIST'))
                .trim()
                .split('\n').length,
          )
          .toBe(1);
      } finally {
        admin.disconnect();
      }
    });
  });

  describe('with TLS', () => {
    let server: RedisServerTarget;
    let ca: Pem;
    beforeAll(async () => {
      ca = await generateTestCa();
      const leaf = await generateCertificate({ commonName: 'localhost', altNames: ['localhost'], ca });
      server = await startRedisServer({ tls: leaf });
    });
    afterAll(async () => {
      await server.close();
    });

    it('require: encrypted without checking the certificate, tls timed', async () => {
      const obs = await registry.run(probe(server.target, { tls_mode: 'require' }), ctx);
      expect(obs).toMatchObject({ status: 'up', error: null });
      expect(obs.timings.tls_ms).toBeGreaterThanOrEqual(0);
    });

    it('verify: trusted through ca_certificate, by the host name', async () => {
      const obs = await registry.run(
        probe(`localhost:${server.port}`, { tls_mode: 'verify', ca_certificate: ca.cert }),
        ctx,
      );
      expect(obs).toMatchObject({ status: 'up', error: null });
    });

    it('verify: an unknown CA is tls_invalid, another name is tls_hostname_mismatch', async () => {
      const untrusted = await registry.run(probe(`localhost:${server.port}`, { tls_mode: 'verify' }), ctx);
      expect(untrusted).toMatchObject({ status: 'down', error: { code: 'tls_invalid' } });
      const otherName = await registry.run(
        probe(`127.0.0.1:${server.port}`, { tls_mode: 'verify', ca_certificate: ca.cert }),
        ctx,
      );
      expect(otherName).toMatchObject({ status: 'down', error: { code: 'tls_hostname_mismatch' } });
    });

    it('disable against a TLS server fails without hanging', async () => {
      const obs = await registry.run(probe(server.target, { timeout_ms: 2000 }), ctx);
      expect(obs.status).toBe('down');
    });
  });
});
