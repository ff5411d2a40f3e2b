import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EventsService } from '../../src/modules/events/index.ts';
import { systemClock } from '../../src/platform/clock.ts';
import { openDatabase } from '../../src/platform/db/index.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../fakes/index.ts';

const ROOT = new URL('../../', import.meta.url).pathname;

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('kill -9 during delivery (real `tocsin serve` child process, SQLite)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tocsin-kill9-'));
  const configPath = join(dataDir, 'tocsin.json');
  writeFileSync(
    configPath,
    JSON.stringify({
      plans: { enterprise: { interval_floor_seconds: 1 } },
      alerting: { lease_seconds: 2, send_timeout_ms: 30_000, poll_ms: 50 },
    }),
  );
  const children: ChildProcess[] = [];
  let receiver: WebhookReceiver | null = null;
  let port = 0;
  const env = () => ({
    ...process.env,
    TOCSIN_DATA_DIR: dataDir,
    TOCSIN_CONFIG: configPath,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    LOG_FORMAT: 'json',
    DATABASE_URL: '',
  });

  async function serve(): Promise<ChildProcess> {
    const child = spawn(process.execPath, ['bin/tocsin.js', 'serve'], {
      cwd: ROOT,
      env: env(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let out = '';
    child.stdout?.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr?.on('data', (c: Buffer) => (out += c.toString()));
    await until(`serve to listen (${out.slice(-500)})`, async () => {
      try {
        return (await fetch(`http://127.0.0.1:${port}/healthz`)).ok;
      } catch {
        return false;
      }
    });
    return child;
  }

  afterAll(async () => {
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
    await receiver?.close();
  });

  it('after a restart every delivery arrives, none is lost, and duplicates carry the same X-Service-Delivery id', async () => {
    port = await freePort();
    const boot = spawnSync(
      process.execPath,
      ['bin/tocsin.js', 'admin', 'bootstrap', '--org', 'Kill9', '--email', 'owner@example.com', '--plan', 'enterprise'],
      { cwd: ROOT, env: env(), encoding: 'utf8' },
    );
    expect(boot.status, boot.stderr).toBe(0);
    const { api_key: key, organization_id: orgId } = JSON.parse(boot.stdout.trim().split('\n').pop()!) as {
      api_key: string;
      organization_id: string;
    };
    const secretBox = { secret: '' };
    receiver = await startWebhookReceiver({
      get secret() {
        return secretBox.secret;
      },
    } as { secret: string });

    const first = await serve();
    const call = async (method: string, path: string, body: unknown) => {
      const res = await fetch(`http://127.0.0.1:${port}${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return (await res.json()) as Record<string, unknown>;
    };
    const dst = await call('POST', '/api/v1/auth/organization/webhooks', {
      type: 'generic_webhook',
      name: 'Receiver',
      config: { url: receiver.webhookUrl },
    });
    secretBox.secret = String(dst.signing_secret);
    const mon = await call('POST', '/api/v1/monitors', {
      name: 'Paused',
      target: 'https://example.com',
      interval_seconds: 60,
      paused: true,
      config: { alert_destination_ids: [dst.id] },
    });

    // The receiver hangs on the first delivery; the worker is killed while it waits for the answer.
    receiver.hangNext(1);
    const database = openDatabase({ url: null, sqlitePath: join(dataDir, 'tocsin.db') });
    const events = new EventsService({ database, clock: systemClock });
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      const e = await database.transaction((tx) =>
        events.record(tx, {
          organizationId: orgId,
          type: i % 2 === 0 ? 'down' : 'recovered',
          monitorId: String(mon.id),
          incidentId: null,
          occurredAt: Date.now(),
          payload: { cause: `run ${i}` },
        }),
      );
      ids.push(e.id);
    }
    await until('the first delivery to reach the hanging receiver', () => receiver!.requests.length >= 1);
    first.kill('SIGKILL');
    await new Promise((r) => first.once('exit', r));
    expect(receiver.requests).toHaveLength(1);

    await serve();
    await until(
      'every event to arrive after the restart',
      () => new Set(receiver!.verified().map((r) => (r.json as { id: string }).id)).size === ids.length,
      30_000,
    );
    const got = receiver.verified();
    expect(receiver.verifications.every((v) => v.ok)).toBe(true);
    // In order, none lost; the interrupted one was sent again with the same delivery id.
    const order = got.map((r) => (r.json as { id: string }).id);
    expect([...new Set(order)]).toEqual(ids);
    const byEvent = new Map<string, Set<string>>();
    for (const r of got) {
      const id = (r.json as { id: string }).id;
      byEvent.set(id, (byEvent.get(id) ?? new Set()).add(String(r.headers['x-service-delivery'])));
    }
    for (const [, dlv] of byEvent) expect(dlv.size).toBe(1);
    expect(got.filter((r) => (r.json as { id: string }).id === ids[0]).length).toBe(2);
    await database.close();
  }, 90_000);
});
