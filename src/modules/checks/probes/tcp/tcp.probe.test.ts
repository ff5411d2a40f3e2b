import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPort, startTcpTarget, type TcpTarget } from '../../../../../test/support/targets/index.ts';
import { createProbeRegistry } from '../index.ts';
import type { ProbeContext, ProbeTarget } from '../index.ts';

const registry = createProbeRegistry();
const ctx: ProbeContext = { now: () => Date.now(), allowPrivateTargets: true };
const tcp = (target: string, config: Record<string, unknown> = {}): ProbeTarget => ({
  id: 'mon_tcp',
  type: 'tcp',
  target,
  interval_seconds: 60,
  config: { timeout_ms: 1000, ...config },
});

let server: TcpTarget;
beforeAll(async () => {
  server = await startTcpTarget();
});
afterAll(async () => {
  await server.close();
});

describe('tcp probe', () => {
  it('is up when the port accepts', async () => {
    const before = server.connections();
    const obs = await registry.run(tcp(server.target), ctx);
    expect(obs).toMatchObject({
      status: 'up',
      error: null,
      http_status: null,
      details: { remote_address: '127.0.0.1' },
    });
    expect(obs.timings.connect_ms).toBeGreaterThanOrEqual(0);
    expect(obs.timings.dns_ms).toBeNull();
    await new Promise((r) => setTimeout(r, 20));
    expect(server.connections()).toBe(before + 1);
  });

  it('resolves host names', async () => {
    const obs = await registry.run(tcp(`localhost:${server.port}`), ctx);
    expect(obs.status).toBe('up');
    expect(obs.timings.dns_ms).toBeGreaterThanOrEqual(0);
  });

  it('is down with connect_refused on a closed port', async () => {
    const obs = await registry.run(tcp(`127.0.0.1:${await closedPort()}`), ctx);
    expect(obs).toMatchObject({ status: 'down', error: { code: 'connect_refused' } });
  });

  it('is down with timeout when the check is aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const obs = await registry.run(tcp(server.target), { ...ctx, signal: controller.signal });
    expect(obs).toMatchObject({ status: 'down', error: { code: 'timeout' } });
  });

  it.each(['localhost', 'localhost:0', 'localhost:70000', ':80', 'a b:80'])(
    'rejects %j as invalid_target',
    async (t) => {
      expect((await registry.run(tcp(t), ctx)).error?.code).toBe('invalid_target');
    },
  );

  it('accepts [v6]:port', async () => {
    const obs = await registry.run(tcp(`[::1]:${await closedPort()}`), ctx);
    expect(obs.status).toBe('down');
    expect(['connect_refused']).toContain(obs.error?.code);
  });

  it('refuses private targets when not allowed', async () => {
    const obs = await registry.run(tcp(server.target), { ...ctx, allowPrivateTargets: false });
    expect(obs).toMatchObject({ status: 'down', error: { code: 'private_target' } });
  });
});
