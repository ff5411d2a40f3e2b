import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  closedPort,
  generateCertificate,
  generateTestCa,
  startGrpcHealthServer,
  type GrpcHealthServer,
} from '../../../../../test/support/targets/index.ts';
import { createProbeRegistry } from '../index.ts';
import type { ProbeContext, ProbeTarget } from '../index.ts';

const registry = createProbeRegistry();
const ctx: ProbeContext = { now: () => Date.now(), allowPrivateTargets: true };
const grpc = (target: string, config: Record<string, unknown> = {}): ProbeTarget => ({
  id: 'mon_grpc',
  type: 'grpc',
  target,
  interval_seconds: 60,
  config: { tls: false, service: '', timeout_ms: 2000, ...config },
});

let server: GrpcHealthServer;
beforeAll(async () => {
  server = await startGrpcHealthServer({ '': 'SERVING', 'shop.Cart': 'NOT_SERVING', 'shop.Search': 'UNKNOWN' });
});
afterAll(async () => {
  await server.close();
});

describe('grpc probe', () => {
  it('is up when the overall health is SERVING', async () => {
    const obs = await registry.run(grpc(server.target), ctx);
    expect(obs).toMatchObject({ status: 'up', error: null, details: { serving_status: 'SERVING', service: '' } });
    expect(obs.timings.total_ms).toBeGreaterThan(0);
  });

  it('uses host names too', async () => {
    const obs = await registry.run(grpc(`localhost:${server.port}`), ctx);
    expect(obs.status).toBe('up');
  });

  it.each([
    ['shop.Cart', 'NOT_SERVING'],
    ['shop.Search', 'UNKNOWN'],
    ['shop.Unknown', 'SERVICE_UNKNOWN'],
  ])('is down with grpc_not_serving for %s (%s)', async (service, serving_status) => {
    const obs = await registry.run(grpc(server.target, { service }), ctx);
    expect(obs).toMatchObject({ status: 'down', error: { code: 'grpc_not_serving' }, details: { serving_status } });
  });

  it('follows status changes', async () => {
    server.setStatus('shop.Cart', 'SERVING');
    expect((await registry.run(grpc(server.target, { service: 'shop.Cart' }), ctx)).status).toBe('up');
    server.setStatus('shop.Cart', 'NOT_SERVING');
  });

  it('is down with grpc_error when unreachable', async () => {
    const obs = await registry.run(grpc(`127.0.0.1:${await closedPort()}`), ctx);
    expect(obs).toMatchObject({ status: 'down', error: { code: 'grpc_error' } });
    expect(obs.error?.message).toMatch(/UNAVAILABLE/);
  });

  it('speaks TLS when config.tls is true', async () => {
    const ca = await generateTestCa();
    const cert = await generateCertificate({ commonName: 'localhost', altNames: ['localhost', '127.0.0.1'], ca });
    const secure = await startGrpcHealthServer({ '': 'SERVING' }, { tls: cert });
    try {
      const obs = await registry.run(grpc(`localhost:${secure.port}`, { tls: true }), { ...ctx, tlsCa: ca.cert });
      expect(obs).toMatchObject({ status: 'up', details: { serving_status: 'SERVING' } });
      const untrusted = await registry.run(grpc(`localhost:${secure.port}`, { tls: true }), ctx);
      expect(untrusted).toMatchObject({ status: 'down', error: { code: 'grpc_error' } });
    } finally {
      await secure.close();
    }
  });

  it('refuses private targets when not allowed', async () => {
    expect((await registry.run(grpc(server.target), { ...ctx, allowPrivateTargets: false })).error?.code).toBe(
      'private_target',
    );
  });
});
