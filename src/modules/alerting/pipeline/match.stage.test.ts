import { describe, expect, it } from 'vitest';
import { classifyAttempt } from './classify.stage.ts';
import { matchTargets, type MatchInput } from './match.stage.ts';
import { MAX_ATTEMPTS, nextAttemptAt, RETRY_DELAYS_MS } from './retry.schedule.ts';

const dests = [
  { id: 'dst_a', events: ['down', 'recovered'] },
  { id: 'dst_b', events: ['down'] },
  { id: 'dst_c', events: ['cert_expiring', 'incident_opened'] },
];
const members = [
  { userId: 'usr_1', email: 'a@example.com' },
  { userId: 'usr_2', email: 'b@example.com' },
];
const base = (over: Partial<MatchInput> & { event: MatchInput['event'] }): MatchInput => ({
  monitorDestinationIds: ['dst_a', 'dst_b', 'dst_c'],
  destinations: dests,
  orgEmail: { enabled: false, verifiedMembers: members },
  ...over,
});
const ids = (input: MatchInput) =>
  matchTargets(input).map((t) => (t.kind === 'destination' ? t.destinationId : `member:${t.userId}`));

describe('match stage (pure)', () => {
  it.each([
    [
      'down to a monitor with all three attached',
      { type: 'down', monitorId: 'mon_1', payload: {} },
      ['dst_a', 'dst_b'],
    ],
    ['recovered', { type: 'recovered', monitorId: 'mon_1', payload: {} }, ['dst_a']],
    ['cert_expiring', { type: 'cert_expiring', monitorId: 'mon_1', payload: {} }, ['dst_c']],
    ['still_down (nobody subscribed)', { type: 'still_down', monitorId: 'mon_1', payload: {} }, []],
    [
      'incident_opened without a monitor → every subscribed destination',
      { type: 'incident_opened', monitorId: null, payload: {} },
      ['dst_c'],
    ],
    [
      'scheduled_report → its destination_ids whatever their events',
      { type: 'scheduled_report', monitorId: null, payload: { destination_ids: ['dst_b', 'dst_x'] } },
      ['dst_b'],
    ],
    [
      'test → the addressed destination',
      { type: 'test', monitorId: null, payload: { destination_ids: ['dst_c'] } },
      ['dst_c'],
    ],
  ] as const)('%s', (_name, event, expected) => {
    expect(ids(base({ event: { ...event, payload: { ...event.payload } } }))).toEqual(expected);
  });

  it('only the monitor’s attached destinations hear about it', () => {
    expect(
      ids(base({ event: { type: 'down', monitorId: 'mon_1', payload: {} }, monitorDestinationIds: ['dst_b'] })),
    ).toEqual(['dst_b']);
    expect(ids(base({ event: { type: 'down', monitorId: 'mon_1', payload: {} }, monitorDestinationIds: [] }))).toEqual(
      [],
    );
  });

  it('adds one email per verified member for down/recovered when the organization channel is on', () => {
    const on = { enabled: true, verifiedMembers: members };
    expect(ids(base({ event: { type: 'down', monitorId: 'mon_1', payload: {} }, orgEmail: on }))).toEqual([
      'dst_a',
      'dst_b',
      'member:usr_1',
      'member:usr_2',
    ]);
    expect(ids(base({ event: { type: 'still_down', monitorId: 'mon_1', payload: {} }, orgEmail: on }))).toEqual([]);
    expect(ids(base({ event: { type: 'scheduled_report', monitorId: null, payload: {} }, orgEmail: on }))).toEqual([]);
  });
});

describe('retry schedule and classification (pure)', () => {
  const now = 1_000_000;
  it('follows 1 m, 5 m, 30 m, 2 h, 6 h then gives up; jitter stays within ±10 %', () => {
    expect(RETRY_DELAYS_MS).toEqual([60_000, 300_000, 1_800_000, 7_200_000, 21_600_000]);
    expect(MAX_ATTEMPTS).toBe(6);
    for (let attempt = 1; attempt <= 5; attempt++) {
      const d = RETRY_DELAYS_MS[attempt - 1]!;
      expect(nextAttemptAt(attempt, now, () => 0.5)).toBe(now + d);
      expect(nextAttemptAt(attempt, now, () => 0)).toBe(now + Math.round(d * 0.9));
      expect(nextAttemptAt(attempt, now, () => 0.999999)).toBeLessThanOrEqual(now + Math.round(d * 1.1));
    }
    expect(nextAttemptAt(6, now, () => 0.5)).toBeNull();
  });

  it('honours Retry-After instead of the schedule', () => {
    expect(nextAttemptAt(1, now, () => 0.5, 120_000)).toBe(now + 120_000);
    expect(nextAttemptAt(2, now, () => 0.5, 0)).toBe(now + 1000);
  });

  it('maps each outcome onto the delivery and the destination record', () => {
    const r = () => 0.5;
    expect(classifyAttempt({ outcome: 'ok', provider_reference: 'HTTP 200' }, 1, now, r)).toEqual({
      delivery: { status: 'delivered', at: now, providerReference: 'HTTP 200' },
      destination: { ok: true, at: now },
    });
    expect(classifyAttempt({ outcome: 'retry', reason: 'HTTP 503' }, 1, now, r).delivery).toEqual({
      status: 'pending',
      at: now,
      nextAttemptAt: now + 60_000,
      error: 'HTTP 503',
    });
    expect(classifyAttempt({ outcome: 'retry', reason: 'HTTP 503' }, 6, now, r).delivery.status).toBe('failed');
    const broken = classifyAttempt({ outcome: 'destination_broken', reason: 'HTTP 410 Gone' }, 1, now, r);
    expect(broken.delivery.status).toBe('failed');
    expect(broken.destination).toMatchObject({
      ok: false,
      needsReauthorization: false,
      reason: expect.stringContaining('410'),
    });
    expect(classifyAttempt({ outcome: 'reauthorize', reason: 'token_revoked' }, 1, now, r).destination).toMatchObject({
      ok: false,
      needsReauthorization: true,
    });
    expect(classifyAttempt({ outcome: 'payload_rejected', reason: 'HTTP 400' }, 1, now, r).delivery.status).toBe(
      'failed',
    );
  });
});
