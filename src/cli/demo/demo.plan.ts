/**
 * The demo's history, decided up front from a seed (the same seed gives the same history): which monitors exist and
 * when, their outages, pauses, isolated failures, slow days and every check's latency. The generator
 * (demo.generator.ts) plays it through the check engine; tests compare reports with what the plan says.
 */

export const DEMO_MONITOR_TYPES = ['http', 'tcp', 'dns', 'tls'] as const;
export type DemoMonitorType = (typeof DEMO_MONITOR_TYPES)[number];

export interface DemoPlanOptions {
  monitors: number;
  days: number;
  /** Seconds between two checks of a demo monitor (their interval_seconds). */
  intervalSeconds: number;
  /** The history ends at the last check before this instant. */
  now: number;
  seed: number;
  /** SLA targets beyond the demo's own two (the report benchmark asks for 100). */
  extraSlaTargets?: number;
}

export interface PlannedOutage {
  /** The first failing check (a tick). */
  firstFailure: number;
  /** The first successful check after it (a tick): downtime is exactly recovery − firstFailure. */
  recovery: number;
  /** When someone acknowledges the incident (it opens at the second failure); null: resolved before anyone did. */
  acknowledgeAt: number | null;
  cause: 'timeout' | 'http_503' | 'refused';
}

export interface PlannedMonitor {
  index: number;
  name: string;
  type: DemoMonitorType;
  target: string;
  tags: string[];
  environment: 'production' | 'staging';
  baseMs: number;
  reminderMinutes: number | null;
  /** A tick: the monitor is created then and checked from then on. */
  createdAt: number;
  /** Paused at `from`, resumed at `to` (both ticks); no checks in [from, to). */
  pause: { from: number; to: number } | null;
  outages: PlannedOutage[];
  /** Ticks of single failures (failure_threshold 2 is never reached: not downtime). */
  blips: number[];
  /** UTC day numbers (epoch ms / 86 400 000) on which the monitor answers slowly, with the factor. */
  slowDays: Map<number, number>;
}

export interface PlannedSlaTarget {
  name: string;
  monitorIndexes: number[];
  targetPercent: number;
  period: 'daily' | 'weekly' | 'monthly' | 'quarterly';
}

export interface DemoPlan {
  start: number;
  end: number;
  intervalMs: number;
  monitors: PlannedMonitor[];
  slaTargets: PlannedSlaTarget[];
}

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** A small seeded generator (mulberry32): the plan must not depend on Math.random. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const CATALOGUE: Array<{ name: string; type: DemoMonitorType; target: string; tags: string[]; baseMs: number }> = [
  {
    name: 'Checkout API',
    type: 'http',
    target: 'https://example.com/checkout/health',
    tags: ['api', 'payments'],
    baseMs: 180,
  },
  {
    name: 'Payments webhook',
    type: 'http',
    target: 'https://example.com/payments/webhook',
    tags: ['api', 'payments'],
    baseMs: 240,
  },
  { name: 'Storefront', type: 'http', target: 'https://example.com/', tags: ['web'], baseMs: 320 },
  { name: 'Search API', type: 'http', target: 'https://example.com/search/health', tags: ['api'], baseMs: 140 },
  {
    name: 'Auth service',
    type: 'http',
    target: 'https://example.org/auth/health',
    tags: ['api', 'internal'],
    baseMs: 90,
  },
  { name: 'Primary database', type: 'tcp', target: 'example.net:5432', tags: ['infra'], baseMs: 12 },
  { name: 'Cache cluster', type: 'tcp', target: 'example.net:6379', tags: ['infra'], baseMs: 8 },
  { name: 'DNS example.com', type: 'dns', target: 'example.com', tags: ['infra', 'edge'], baseMs: 22 },
  { name: 'Storefront certificate', type: 'tls', target: 'example.com:443', tags: ['web', 'edge'], baseMs: 65 },
  { name: 'Image CDN', type: 'http', target: 'https://example.net/img/pixel.png', tags: ['web', 'edge'], baseMs: 45 },
  { name: 'Mobile API', type: 'http', target: 'https://example.org/mobile/v2/health', tags: ['api'], baseMs: 160 },
  {
    name: 'Admin console',
    type: 'http',
    target: 'https://example.org/admin/login',
    tags: ['web', 'internal'],
    baseMs: 260,
  },
  { name: 'Inventory API', type: 'http', target: 'https://example.com/inventory/health', tags: ['api'], baseMs: 130 },
  {
    name: 'Billing portal',
    type: 'http',
    target: 'https://example.com/billing/',
    tags: ['web', 'payments'],
    baseMs: 380,
  },
  { name: 'SMTP relay', type: 'tcp', target: 'example.org:587', tags: ['infra'], baseMs: 30 },
  { name: 'Docs site', type: 'http', target: 'https://example.org/docs/', tags: ['web'], baseMs: 110 },
  { name: 'GraphQL gateway', type: 'http', target: 'https://example.com/graphql/health', tags: ['api'], baseMs: 210 },
  { name: 'API certificate', type: 'tls', target: 'example.org:443', tags: ['api', 'edge'], baseMs: 70 },
  { name: 'DNS example.org', type: 'dns', target: 'example.org', tags: ['edge'], baseMs: 25 },
  {
    name: 'Status API',
    type: 'http',
    target: 'https://example.net/status.json',
    tags: ['api', 'internal'],
    baseMs: 60,
  },
  { name: 'Marketing site', type: 'http', target: 'https://example.net/', tags: ['web'], baseMs: 290 },
  { name: 'Message queue', type: 'tcp', target: 'example.net:5672', tags: ['infra', 'internal'], baseMs: 15 },
  {
    name: 'Reports service',
    type: 'http',
    target: 'https://example.org/reports/health',
    tags: ['api', 'internal'],
    baseMs: 340,
  },
  { name: 'Staging storefront', type: 'http', target: 'https://example.com/staging/', tags: ['web'], baseMs: 350 },
  {
    name: 'Recommendations',
    type: 'http',
    target: 'https://example.com/recommendations/health',
    tags: ['api'],
    baseMs: 230,
  },
];

/** The monitor created half-way through the history (the last one) and the one paused for two days (the third). */
const PAUSED_INDEX = 2;

export function planDemo(o: DemoPlanOptions): DemoPlan {
  const intervalMs = o.intervalSeconds * 1000;
  const end = Math.ceil(o.now / intervalMs) * intervalMs; // ticks are < end, so the last one is before now
  const start = end - o.days * DAY_MS;
  const ticks = Math.round((end - start) / intervalMs);
  const tickAt = (i: number) => start + Math.max(0, Math.min(ticks - 1, i)) * intervalMs;
  const tickOf = (at: number) => Math.floor((at - start) / intervalMs);
  const rnd = prng(o.seed);
  const monitors: PlannedMonitor[] = [];
  // A shared bad day: every monitor tagged `api` is slow on it (a database incident upstream).
  const sharedSlowDay = Math.floor((start + Math.floor(o.days * 0.4) * DAY_MS) / DAY_MS);
  for (let i = 0; i < o.monitors; i++) {
    const c = CATALOGUE[i % CATALOGUE.length]!;
    const round = Math.floor(i / CATALOGUE.length);
    const name = round === 0 ? c.name : `${c.name} ${round + 1}`;
    const createdLate = o.monitors > 1 && i === o.monitors - 1;
    const createdAt = createdLate ? tickAt(Math.floor(ticks / 2)) : start;
    const firstTick = tickOf(createdAt);
    // Busy ticks: what an outage may not touch (with one tick of margin).
    const busy = new Set<number>();
    const mark = (from: number, to: number) => {
      for (let k = from - 1; k <= to + 1; k++) busy.add(k);
    };
    let pause: PlannedMonitor['pause'] = null;
    if (i === PAUSED_INDEX && o.days >= 3) {
      const from = Math.floor(ticks * 0.66);
      const to = from + Math.round((2 * DAY_MS) / intervalMs);
      pause = { from: tickAt(from), to: tickAt(to) };
      mark(from, to);
    }
    const outages: PlannedOutage[] = [];
    // About one outage a month, more for the first monitors (the demo's story: checkout has a bad quarter).
    const wanted = Math.max(
      i < 3 ? 2 : 0,
      Math.round((o.days / 30) * (i < 3 ? 1.5 : 0.8) * rnd() + (rnd() < 0.3 ? 1 : 0)),
    );
    for (let n = 0, attempts = 0; n < wanted && attempts < 50; attempts++) {
      const long = rnd() < 0.2 || (i === 0 && n === 0);
      const minutes = long ? 60 + rnd() * 120 : 10 + rnd() * 40;
      const length = Math.max(2, Math.round((minutes * MINUTE_MS) / intervalMs));
      const from = firstTick + 2 + Math.floor(rnd() * Math.max(1, ticks - firstTick - length - 4));
      const to = from + length; // the recovery tick
      let free = to < ticks - 1;
      for (let k = from; free && k <= to; k++) if (busy.has(k)) free = false;
      if (!free) continue;
      mark(from, to);
      const openedAt = tickAt(from + 1);
      const ackDelay = (5 + rnd() * 25) * MINUTE_MS;
      const acknowledgeAt =
        rnd() < 0.75 ? Math.ceil((openedAt + ackDelay - start) / intervalMs) * intervalMs + start : null;
      outages.push({
        firstFailure: tickAt(from),
        recovery: tickAt(to),
        acknowledgeAt: acknowledgeAt !== null && acknowledgeAt < tickAt(to) ? acknowledgeAt : null,
        cause: (['timeout', 'http_503', 'refused'] as const)[Math.floor(rnd() * 3)]!,
      });
      n++;
    }
    outages.sort((a, b) => a.firstFailure - b.firstFailure);
    const blips: number[] = [];
    const blipCount = Math.round((o.days / 3) * rnd());
    for (let n = 0; n < blipCount; n++) {
      const k = firstTick + 1 + Math.floor(rnd() * Math.max(1, ticks - firstTick - 2));
      if (busy.has(k) || k >= ticks - 1) continue;
      mark(k, k);
      blips.push(tickAt(k));
    }
    blips.sort((a, b) => a - b);
    const slowDays = new Map<number, number>();
    const firstDay = Math.floor(start / DAY_MS);
    for (let d = 0; d <= o.days; d++) if (rnd() < 0.05) slowDays.set(firstDay + d, 1.8 + rnd() * 1.2);
    if (c.tags.includes('api')) slowDays.set(sharedSlowDay, 2.5);
    monitors.push({
      index: i,
      name,
      type: c.type,
      target: c.target,
      tags: c.tags,
      environment: c.name.startsWith('Staging') ? 'staging' : 'production',
      baseMs: c.baseMs * (0.85 + rnd() * 0.3),
      reminderMinutes: i % 4 === 0 ? 30 : null,
      createdAt,
      pause,
      outages,
      blips,
      slowDays,
    });
  }
  const slaTargets: PlannedSlaTarget[] = [];
  if (o.monitors >= 2)
    slaTargets.push({
      name: 'Checkout (API and payments)',
      monitorIndexes: [0, 1],
      targetPercent: 99.9,
      period: 'monthly',
    });
  if (o.monitors >= 3)
    slaTargets.push({ name: 'Storefront', monitorIndexes: [2], targetPercent: 99.5, period: 'weekly' });
  const periods = ['daily', 'weekly', 'monthly', 'quarterly'] as const;
  for (let n = 0; n < (o.extraSlaTargets ?? 0); n++) {
    const a = n % o.monitors;
    const b = (n * 7 + 3) % o.monitors;
    slaTargets.push({
      name: `SLA ${n + 1}`,
      monitorIndexes: a === b ? [a] : [a, b],
      targetPercent: [99, 99.5, 99.9, 99.95][n % 4]!,
      period: periods[n % 4]!,
    });
  }
  return { start, end, intervalMs, monitors, slaTargets };
}

/** Whether the monitor is checked at tick `at`: it exists and is not paused. */
export function checkedAt(m: PlannedMonitor, at: number): boolean {
  if (at < m.createdAt) return false;
  return !(m.pause && at >= m.pause.from && at < m.pause.to);
}

/** The outage containing tick `at`, if any. */
export function outageAt(m: PlannedMonitor, at: number): PlannedOutage | undefined {
  for (const o of m.outages) if (at >= o.firstFailure && at < o.recovery) return o;
  return undefined;
}

/**
 * The latency of a successful check: the monitor's base, a daily cycle (slowest around 14:00 UTC, ±30 %), its slow
 * days, log-normal noise (σ 0.2) and a rare spike (0.5 %, × 3–6). Deterministic in (seed, monitor, tick).
 */
export function latencyAt(m: PlannedMonitor, at: number, seed: number): number {
  const r = prng((seed ^ Math.imul(m.index + 1, 0x9e3779b1) ^ Math.floor(at / MINUTE_MS)) >>> 0);
  const hour = (at % DAY_MS) / HOUR_MS;
  const daily = 1 + 0.3 * Math.sin((2 * Math.PI * (hour - 8)) / 24);
  const slow = m.slowDays.get(Math.floor(at / DAY_MS)) ?? 1;
  // Box–Muller: a standard normal from two uniforms.
  const normal = Math.sqrt(-2 * Math.log(1 - r())) * Math.cos(2 * Math.PI * r());
  const spike = r() < 0.005 ? 3 + r() * 3 : 1;
  return Math.max(1, Math.round(m.baseMs * daily * slow * Math.exp(0.2 * normal) * spike));
}
