import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../api-access/helpers.ts';
import { createTestApp, ManualClock, type TestApp, type TestOrg } from '../support/app.ts';
import { testDialects } from '../support/databases.ts';
import { createPerson, inSession, signIn, type Browser } from '../support/sessions.ts';
import { SseClient, type SseMessage } from '../support/sse.ts';
import { startHttpTarget, type RunningTarget } from '../support/targets/index.ts';

const PASSWORD = 'stream password';
const STREAM = '/api/v1/events/stream';

describe.each(testDialects())('live events over server-sent events (%s)', (dialect) => {
  let t: TestApp;
  let clock: ManualClock;
  let target: RunningTarget;
  let status = 200;
  let base: string;
  let org: TestOrg;
  let owner: Browser;
  const open: SseClient[] = [];

  const stream = async (headers: Record<string, string>) => {
    const client = await SseClient.open(`${base}${STREAM}`, headers);
    open.push(client);
    return client;
  };
  const keyWith = async (scopes: string[], environments: string[]) =>
    (
      await t.tocsin.services.auth.issueKey({
        organizationId: org.organizationId,
        name: 'stream',
        scopes: scopes as never,
        environments,
        userId: org.userId,
      })
    ).key;
  const round = async () => {
    clock.advance(30_000);
    await t.tocsin.services.checks.localRunner.runOnce();
  };
  const of = (type: string) => (m: SseMessage) => m.event === type;

  beforeAll(async () => {
    clock = new ManualClock(Date.parse('2026-11-24T10:00:00.000Z'));
    t = await createTestApp({ dialect, clock });
    target = await startHttpTarget((_req, res) => {
      res.writeHead(status, { 'content-type': 'text/plain' });
      res.end('x');
    });
    await t.tocsin.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.tocsin.app.server.address() as AddressInfo).port}`;
    org = await t.createOrg();
    await createPerson(t, org.organizationId, 'viewer', `watcher-${dialect}@example.com`, PASSWORD);
    owner = await signIn(t, `watcher-${dialect}@example.com`, PASSWORD);
  });
  afterAll(async () => {
    for (const c of open) c.close();
    await target.close();
    await t.close();
  });

  it('sends status changes, incidents and executions to whom may see them, and resumes with Last-Event-ID', async () => {
    const monitor = await call(t, org.apiKey, 'POST', '/api/v1/monitors', {
      body: {
        name: 'Checkout',
        target: target.url,
        interval_seconds: 30,
        config: { failure_threshold: 2, success_threshold: 1 },
      },
    });
    expect(monitor.statusCode).toBe(201);
    const monitorId = monitor.json().id as string;

    const session = await stream({ cookie: owner.cookie });
    expect(session.status).toBe(200);
    expect(session.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    await session.next(of('ready'));
    const statusOnly = await stream({ authorization: `Bearer ${await keyWith(['monitors:read'], ['production'])}` });
    const staging = await stream({
      authorization: `Bearer ${await keyWith(['monitors:read', 'incidents:read', 'executions:read'], ['staging'])}`,
    });
    const stranger = await t.createOrg();
    const elsewhere = await stream({ authorization: `Bearer ${stranger.apiKey}` });
    for (const c of [statusOnly, staging, elsewhere]) await c.next(of('ready'));
    expect(t.tocsin.services.live.clientCount).toBe(4);

    status = 503;
    await round();
    await round();
    const down = await session.next(of('monitor.status'));
    expect(down.data).toEqual({
      monitor_id: monitorId,
      status: 'down',
      previous_status: 'pending',
      at: expect.any(String),
    });
    const opened = await session.next(of('incident.opened'));
    expect(opened.data).toEqual({
      incident_id: expect.stringMatching(/^inc_/),
      monitor_id: monitorId,
      number: 1,
      title: 'Checkout is down',
      status: 'open',
      at: expect.any(String),
    });
    await session.next(
      (m) => m.event === 'execution.recorded' && session.messages.filter(of('execution.recorded')).length >= 2,
    );
    const executions = session.messages.filter(of('execution.recorded'));
    expect(executions[0]!.data).toEqual({
      monitor_id: monitorId,
      execution_id: expect.stringMatching(/^exe_/),
      status: 'down',
      duration_ms: expect.any(Number),
      at: expect.any(String),
    });
    // Ids only grow.
    const ids = session.messages.map((m) => m.id!);
    const positions = ids.map((id) => id.split('-').map(Number) as [number, number]);
    for (let i = 1; i < positions.length; i += 1) {
      expect(positions[i]![0] >= positions[i - 1]![0] && positions[i]![1] >= positions[i - 1]![1], ids.join(' ')).toBe(
        true,
      );
    }

    // A heartbeat reaches every client after what was sent before it: then the others have all they will get.
    const clients = [session, statusOnly, staging, elsewhere];
    const seen = clients.map((c) => c.comments.length);
    t.tocsin.services.live.beat();
    for (const [i, c] of clients.entries()) await c.next(() => c.comments.length > seen[i]!);
    expect(statusOnly.messages.map((m) => m.event)).toEqual(['ready', 'monitor.status']);
    expect(staging.messages.map((m) => m.event)).toEqual(['ready']);
    expect(elsewhere.messages.map((m) => m.event)).toEqual(['ready']);

    // The session's browser goes away; meanwhile the incident is acknowledged; it comes back with its last id.
    // Another tab of the same person stays connected and shows when the feed has passed the acknowledgement.
    const otherTab = await stream({ cookie: owner.cookie });
    await otherTab.next(of('ready'));
    const lastId = session.lastId!;
    session.close();
    // The server notices the closed connection and drops the client from the feed.
    while (t.tocsin.services.live.clientCount !== 4) await new Promise((r) => setTimeout(r, 10));
    const incidentId = (opened.data as { incident_id: string }).incident_id;
    const ack = await call(t, org.apiKey, 'POST', `/api/v1/incidents/${incidentId}/acknowledge`);
    expect(ack.statusCode, ack.body).toBe(200);
    await otherTab.next(of('incident.acknowledged'));
    // A change in this process wakes the feed at once; the returning client is sent what it missed first.
    const back = await stream({ cookie: owner.cookie, 'last-event-id': lastId });
    const acknowledged = await back.next(of('incident.acknowledged'));
    expect(acknowledged.data).toMatchObject({
      incident_id: incidentId,
      number: 1,
      title: 'Checkout is down',
      status: 'acknowledged',
    });
    await back.next(of('ready'));
    // What it missed comes once and before `ready`: the replay reads up to the stored head after subscribing, so a
    // feed round still in flight cannot push it after `ready` (it is dropped there as already sent).
    expect(back.messages.map((m) => m.event)).toEqual(['incident.acknowledged', 'ready']);

    status = 200;
    await round();
    const up = await back.next((m) => m.event === 'monitor.status');
    expect(up.data).toMatchObject({ monitor_id: monitorId, status: 'up' });
    expect((await back.next(of('incident.resolved'))).data).toMatchObject({
      incident_id: incidentId,
      status: 'resolved',
    });
  });

  it('streams every status change: a new monitor going up, pausing, resuming', async () => {
    status = 200;
    const client = await stream({ cookie: owner.cookie });
    await client.next(of('ready'));
    const created = await call(t, org.apiKey, 'POST', '/api/v1/monitors', {
      body: { name: 'Fresh', target: target.url, interval_seconds: 30 },
    });
    expect(created.statusCode).toBe(201);
    const monitorId = created.json().id as string;
    const mine = (m: SseMessage) =>
      m.event === 'monitor.status' && (m.data as { monitor_id: string }).monitor_id === monitorId;
    await round();
    const up = await client.next(mine);
    expect(up.data).toEqual({
      monitor_id: monitorId,
      status: 'up',
      previous_status: 'pending',
      at: expect.any(String),
    });
    expect((await call(t, org.apiKey, 'POST', `/api/v1/monitors/${monitorId}/pause`)).statusCode).toBe(200);
    await client.next((m) => mine(m) && client.messages.filter(mine).length >= 2);
    expect((await call(t, org.apiKey, 'POST', `/api/v1/monitors/${monitorId}/resume`)).statusCode).toBe(200);
    await client.next((m) => mine(m) && client.messages.filter(mine).length >= 3);
    await round();
    await client.next((m) => mine(m) && client.messages.filter(mine).length >= 4);
    expect(client.messages.filter(mine).map((m) => m.data as { previous_status: string; status: string })).toEqual([
      expect.objectContaining({ previous_status: 'pending', status: 'up' }),
      expect.objectContaining({ previous_status: 'up', status: 'paused' }),
      expect.objectContaining({ previous_status: 'paused', status: 'pending' }),
      expect.objectContaining({ previous_status: 'pending', status: 'up' }),
    ]);
  });

  it('refuses a stream without a session or key, and a key without monitors:read', async () => {
    expect((await stream({})).status).toBe(401);
    expect(
      (await stream({ authorization: `Bearer ${await keyWith(['incidents:read'], ['production'])}` })).status,
    ).toBe(403);
    const signedOut = await signIn(t, `watcher-${dialect}@example.com`, PASSWORD);
    await inSession(t, signedOut, 'DELETE', '/api/v1/auth/session');
    expect((await stream({ cookie: signedOut.cookie })).status).toBe(401);
  });
});
