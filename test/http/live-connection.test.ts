import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { LiveConnection, visibleTo } from '../../src/http/routes/events/live.connection.ts';
import { expandScopes, SCOPES, type Actor } from '../../src/modules/auth/index.ts';
import type { RecordedExecution } from '../../src/modules/checks/index.ts';
import type { DomainEvent } from '../../src/modules/events/index.ts';
import { LiveHub, type LiveEvent, type LiveSources, type LiveSubscriber } from '../../src/modules/live/index.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { ManualTimers } from '../../src/platform/timers.ts';

const actor = (over: Partial<Actor> = {}): Actor => ({
  organizationId: 'org_a',
  plan: 'enterprise',
  keyId: 'key_a',
  userId: 'usr_a',
  serviceAccountId: null,
  role: 'member',
  scopes: expandScopes(SCOPES),
  environments: ['production'],
  rateLimits: { read: 600, write: 120, delete: 60 },
  ...over,
});

const event = (n: number, over: Partial<LiveEvent> = {}): LiveEvent => ({
  id: `${n}-0`,
  source: { outboxSeq: n },
  type: 'monitor.status',
  organizationId: 'org_a',
  monitorId: 'mon_a',
  environment: 'production',
  scope: 'monitors:read',
  data: { monitor_id: 'mon_a', status: 'down', at: '2026-11-24T00:00:00.000Z', padding: 'x'.repeat(100) },
  ...over,
});

/** A reader that takes one chunk and then never finishes with it (a client that stopped reading). */
function stalled(): Writable & { chunks: string[] } {
  const chunks: string[] = [];
  const w = new Writable({
    highWaterMark: 64,
    write(chunk: Buffer, _enc, _done) {
      chunks.push(chunk.toString());
    },
  });
  return Object.assign(w, { chunks });
}

describe('a live connection', () => {
  it('cuts off a client that does not read once its queue passes the bound, instead of buffering for ever', () => {
    const out = stalled();
    const ends: string[] = [];
    const c = new LiveConnection({ out, actor: actor(), maxQueuedBytes: 1000, onEnd: (r) => ends.push(r) });
    c.start([], true, { seq: 0, executionKey: 0 });
    for (let i = 1; i <= 5; i += 1) c.deliver([event(i)]);
    expect(ends).toEqual([]);
    for (let i = 6; i <= 20; i += 1) c.deliver([event(i)]);
    expect(ends).toEqual(['overflow']);
    expect(out.destroyed).toBe(true);
    expect(c.isEnded).toBe(true);
    c.deliver([event(21)]); // nothing more is queued or written
    expect(out.chunks).toHaveLength(1);
  });

  it('delivers everything, in order, to a client that reads slowly but keeps up', async () => {
    const received: string[] = [];
    const out = new Writable({
      highWaterMark: 64,
      write(chunk: Buffer, _enc, done) {
        received.push(chunk.toString());
        setImmediate(done);
      },
    });
    const c = new LiveConnection({ out, actor: actor(), maxQueuedBytes: 100_000, onEnd: () => undefined });
    c.deliver([event(1)]); // held until the stream starts
    c.start([event(0)], true, { seq: 0, executionKey: 0 });
    for (let i = 2; i <= 50; i += 1) c.deliver([event(i)]);
    while (!received.join('').includes('id: 50-0')) await new Promise((r) => setImmediate(r));
    const ids = received.join('').match(/^id: .*$/gm)!;
    expect(ids).toEqual(['id: 0-0', 'id: 0-0', ...Array.from({ length: 50 }, (_, i) => `id: ${i + 1}-0`)]);
    expect(received.join('')).toContain('event: ready');
  });

  it('shows keys only their scopes and environments, sessions their whole organization', () => {
    const key = actor({ scopes: expandScopes(['monitors:read']), environments: ['staging'] });
    const session = actor({ sessionId: 'ses_a', allEnvironments: true });
    const incident = event(1, { type: 'incident.opened', scope: 'incidents:read' });
    expect(visibleTo(key, event(1))).toBe(false); // production monitor
    expect(visibleTo(key, event(1, { environment: 'staging' }))).toBe(true);
    expect(visibleTo(key, { ...incident, environment: 'staging' })).toBe(false); // no incidents:read
    expect(visibleTo(key, event(1, { environment: null }))).toBe(false); // a monitor that is gone
    expect(visibleTo(session, incident)).toBe(true);
    expect(visibleTo(session, event(1, { organizationId: 'org_b' }))).toBe(false);
  });
});

describe('the live hub', () => {
  it('reads once per round for all its clients, and stops reading when the last one leaves', async () => {
    const outbox: DomainEvent[] = [];
    let reads = 0;
    const sources: LiveSources = {
      latestSeq: async () => outbox.length,
      outboxAfter: async (seq) => {
        reads += 1;
        return outbox.filter((e) => e.seq > seq);
      },
      latestExecutionKey: async () => 0,
      executionsAfter: async (): Promise<RecordedExecution[]> => [],
      incident: async () => null,
      monitorEnvironments: async (ids) => new Map(ids.map((id) => [id, 'production'])),
    };
    const timers = new ManualTimers();
    const hub = new LiveHub({
      sources,
      logger: createLogger({ level: 'silent', pretty: false }),
      pollMs: 60_000,
      heartbeatMs: 15_000,
      timers,
    });
    const got: LiveEvent[][] = [[], [], []];
    const beats = [0, 0, 0];
    const subscribers: LiveSubscriber[] = got.map((list, i) => ({
      deliver: (events) => list.push(...events),
      heartbeat: () => (beats[i]! += 1),
      close: () => undefined,
    }));
    const subs = await Promise.all(subscribers.map((s) => hub.subscribe(s)));
    // One shared heartbeat for every client, every heartbeatMs.
    timers.advance(15_000);
    timers.advance(15_000);
    expect(beats).toEqual([2, 2, 2]);
    expect(subs.map((s) => s.position)).toEqual([
      { seq: 0, executionKey: 0 },
      { seq: 0, executionKey: 0 },
      { seq: 0, executionKey: 0 },
    ]);
    outbox.push({
      seq: 1,
      id: 'evt_1',
      organizationId: 'org_a',
      type: 'monitor_status_changed',
      monitorId: 'mon_a',
      incidentId: null,
      occurredAt: 0,
      payload: { from: 'pending', to: 'up' },
    });
    const before = reads;
    hub.nudge();
    timers.advance(0);
    while (got[2]!.length === 0) await new Promise((r) => setImmediate(r));
    expect(reads - before).toBe(1);
    expect(got.map((l) => l.map((e) => e.type))).toEqual([['monitor.status'], ['monitor.status'], ['monitor.status']]);
    for (const s of subs) s.unsubscribe();
    expect(hub.clientCount).toBe(0);
    // Nobody listens: no poll, no heartbeat is left waiting, and a nudge schedules nothing.
    expect(timers.size).toBe(0);
    hub.nudge();
    expect(timers.size).toBe(0);
    timers.advance(60_000);
    expect(beats).toEqual([2, 2, 2]);
    hub.close();
  });
});

describe('resuming with Last-Event-ID', () => {
  it('replays what was missed up to the limit, and asks for a reload (resync) beyond it', async () => {
    const outbox: DomainEvent[] = Array.from({ length: 5 }, (_, i) => ({
      seq: i + 1,
      id: `evt_${i + 1}`,
      organizationId: 'org_a',
      type: 'monitor_status_changed',
      monitorId: 'mon_a',
      incidentId: null,
      occurredAt: 0,
      payload: i % 2 === 0 ? { from: 'up', to: 'down' } : { from: 'down', to: 'up' },
    }));
    const sources: LiveSources = {
      latestSeq: async () => outbox.length,
      outboxAfter: async (seq, limit) => outbox.filter((e) => e.seq > seq).slice(0, limit),
      latestExecutionKey: async () => 0,
      executionsAfter: async (): Promise<RecordedExecution[]> => [],
      incident: async () => null,
      monitorEnvironments: async (ids) => new Map(ids.map((id) => [id, 'production'])),
    };
    const logger = createLogger({ level: 'silent', pretty: false });
    const head = { seq: 5, executionKey: 0 };
    const roomy = await new LiveHub({ sources, logger, catchUpLimit: 10 }).read({ seq: 2, executionKey: 0 }, head);
    expect(roomy.complete).toBe(true);
    expect(roomy.events.map((e) => e.id)).toEqual(['3-0', '4-0', '5-0']);
    const tight = await new LiveHub({ sources, logger, catchUpLimit: 2 }).read({ seq: 0, executionKey: 0 }, head);
    expect(tight.complete).toBe(false);
    expect(tight.events.map((e) => e.id)).toEqual(['1-0', '2-0']);

    const written: string[] = [];
    const out = new Writable({
      write(chunk: Buffer, _enc, done) {
        written.push(chunk.toString());
        done();
      },
    });
    const c = new LiveConnection({ out, actor: actor(), maxQueuedBytes: 100_000, onEnd: () => undefined });
    c.start(tight.events, tight.complete, { seq: 5, executionKey: 0 });
    const events = written.join('').match(/^event: .*$/gm);
    expect(events).toEqual(['event: monitor.status', 'event: monitor.status', 'event: resync', 'event: ready']);
    expect(written.join('')).toMatch(/id: 5-0\nevent: ready/);
  });
});

describe('a resumed client whose replay reached further than the feed', () => {
  it('gets each event once: live events the replay carried are dropped, later ids never go back', () => {
    const written: string[] = [];
    const out = new Writable({
      write(chunk: Buffer, _enc, done) {
        written.push(chunk.toString());
        done();
      },
    });
    const c = new LiveConnection({ out, actor: actor(), maxQueuedBytes: 100_000, onEnd: () => undefined });
    // The feed's round (positions 3 and 4, and an execution) arrives while the replay up to 4-7 is being read.
    c.deliver([event(3), event(4)]);
    c.deliver([event(4, { id: '4-7', source: { executionKey: 7 }, type: 'execution.recorded' })]);
    c.start([event(3, { id: '3-7' }), event(4, { id: '4-7' })], true, { seq: 4, executionKey: 7 });
    c.deliver([
      event(5, { id: '5-2' }),
      event(5, { id: '5-8', source: { executionKey: 8 }, type: 'execution.recorded' }),
    ]);
    const text = written.join('');
    expect(text.match(/^id: .*$/gm)).toEqual(['id: 3-7', 'id: 4-7', 'id: 4-7', 'id: 5-7', 'id: 5-8']);
    expect(text.match(/^event: .*$/gm)).toEqual([
      'event: monitor.status',
      'event: monitor.status',
      'event: ready',
      'event: monitor.status',
      'event: execution.recorded',
    ]);
  });

  it('is replayed what the feed has not read yet, before ready (the stored head, not the feed position)', async () => {
    const outbox: DomainEvent[] = [];
    const sources: LiveSources = {
      latestSeq: async () => outbox.length,
      outboxAfter: async (seq, limit) => outbox.filter((e) => e.seq > seq).slice(0, limit),
      latestExecutionKey: async () => 0,
      executionsAfter: async (): Promise<RecordedExecution[]> => [],
      incident: async () => null,
      monitorEnvironments: async (ids) => new Map(ids.map((id) => [id, 'production'])),
    };
    const hub = new LiveHub({ sources, logger: createLogger({ level: 'silent', pretty: false }), pollMs: 60_000 });
    const first = await hub.subscribe({ deliver: () => undefined, heartbeat: () => undefined, close: () => undefined });
    outbox.push({
      seq: 1,
      id: 'evt_1',
      organizationId: 'org_a',
      type: 'monitor_status_changed',
      monitorId: 'mon_a',
      incidentId: null,
      occurredAt: 0,
      payload: { from: 'pending', to: 'up' },
    });
    // The feed has not polled yet: its position is still 0, the stored head is 1.
    expect(first.position).toEqual({ seq: 0, executionKey: 0 });
    expect(await hub.head()).toEqual({ seq: 1, executionKey: 0 });
    const missed = await hub.read({ seq: 0, executionKey: 0 }, await hub.head());
    expect(missed.events.map((e) => [e.type, e.data.status])).toEqual([['monitor.status', 'up']]);
    first.unsubscribe();
    hub.close();
  });
});
