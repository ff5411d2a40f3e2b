import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import type { Tocsin } from '../../src/main.ts';
import { testDialects, type TestDatabase } from '../support/databases.ts';
import { openSharedDatabase } from '../support/shared-database.ts';
import { WEBHOOKS } from './helpers.ts';

const ROOT = new URL('../../', import.meta.url).pathname;
const CHILD = new URL('../support/inject.child.ts', import.meta.url).pathname;

interface Started {
  send(requests: unknown[]): void;
  statuses: Promise<number[]>;
}

function startChild(env: Record<string, string>, children: ChildProcess[]): Promise<Started> {
  const child = spawn(process.execPath, [CHILD], { cwd: ROOT, env, stdio: ['pipe', 'pipe', 'inherit'] });
  children.push(child);
  let out = '';
  const statuses = new Promise<number[]>((resolve, reject) =>
    child.once('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out.split('\n')[1]!) as number[]) : reject(new Error(`child exit ${code}`)),
    ),
  );
  return new Promise((resolve) =>
    child.stdout!.on('data', (chunk: Buffer) => {
      const before = out;
      out += chunk.toString('utf8');
      if (!before.includes('ready\n') && out.includes('ready\n')) {
        resolve({ send: (requests) => child.stdin!.end(`${JSON.stringify(requests)}\n`), statuses });
      }
    }),
  );
}

/**
 * Two processes on one database attach and detach the same monitor's destinations at the same moment:
 * each creates 10 destinations linking the monitor and detaches 5 of the monitor's existing ones.
 */
describe.each(testDialects())('monitor ↔ destination links across two processes (%s)', (dialect) => {
  let db: TestDatabase | undefined;
  let tocsin: Tocsin | undefined;
  const children: ChildProcess[] = [];
  afterAll(async () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await tocsin?.close();
    await db?.drop();
  });

  it('loses no attach and no detach', { timeout: 90_000 }, async () => {
    const shared = await openSharedDatabase(dialect, { name: 'links' });
    ({ db, tocsin } = shared);
    const { env } = shared;
    const call = async (method: 'GET' | 'POST', url: string, body?: unknown) => {
      const res = await tocsin!.app.inject({
        method,
        url,
        headers: { authorization: `Bearer ${shared.apiKey}`, 'content-type': 'application/json' },
        ...(body !== undefined && { payload: JSON.stringify(body) }),
      });
      return { status: res.statusCode, body: res.json() as Record<string, unknown> };
    };
    const monitor = await call('POST', '/api/v1/monitors', { target: 'https://links.example.com' });
    expect(monitor.status).toBe(201);
    const monitorId = monitor.body.id as string;
    const existing: string[] = [];
    for (let i = 0; i < 10; i++) {
      const d = await call('POST', WEBHOOKS, {
        type: 'email',
        name: `old ${i}`,
        config: { address: `old${i}@example.com` },
        monitor_ids: [monitorId],
      });
      expect(d.status).toBe(201);
      existing.push(d.body.id as string);
    }

    const processes = await Promise.all(
      [0, 1].map(() => startChild({ ...env, CHILD_API_KEY: shared.apiKey }, children)),
    );
    processes.forEach((child, p) =>
      child.send([
        ...Array.from({ length: 10 }, (_, i) => ({
          method: 'POST',
          url: WEBHOOKS,
          body: {
            type: 'email',
            name: `new ${p}-${i}`,
            config: { address: `new${p}-${i}@example.com` },
            monitor_ids: [monitorId],
          },
        })),
        ...existing
          .slice(p * 5, p * 5 + 5)
          .map((id) => ({ method: 'PATCH', url: `${WEBHOOKS}/${id}`, body: { monitor_ids: [] } })),
      ]),
    );
    const statuses = await Promise.all(processes.map((c) => c.statuses));
    for (const s of statuses) expect(s).toEqual([...Array(10).fill(201), ...Array(5).fill(200)]);

    const read = await call('GET', `/api/v1/monitors/${monitorId}`);
    const linked = (read.body.config as { alert_destination_ids: string[] }).alert_destination_ids;
    const names: string[] = [];
    for (const id of linked) names.push((await call('GET', `${WEBHOOKS}/${id}`)).body.name as string);
    // Every new destination is linked, every detached old one is not.
    expect(linked).toHaveLength(20);
    expect(names.every((n) => n.startsWith('new '))).toBe(true);
    for (const id of existing) {
      const d = await call('GET', `${WEBHOOKS}/${id}`);
      expect(d.body.monitor_ids).toEqual([]);
    }
  });
});
