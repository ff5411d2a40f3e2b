/**
 * Synthetic report documents of the DECISIONS §11 shapes, deterministic (a seeded generator), for the PDF benchmark,
 * the PDF tests and the example PDFs of kinds that have no data source at hand. Monitor 3 carries a Unicode name.
 */
import type {
  AvailabilityMonitor,
  AvailabilityReport,
  IncidentsReportShape,
  IntelligenceReportShape,
  MonitorHealthReportShape,
  PerformanceMonitor,
  PerformanceReport,
  SlaReport,
} from '../../src/modules/reports/index.ts';

export const UNICODE_NAME = 'Zürich – 東京 – Łódź';
const DAY = 86_400_000;

function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1_664_525 + 1_013_904_223) >>> 0;
    return s / 2 ** 32;
  };
}

const round = (v: number, d: number) => Math.round(v * 10 ** d) / 10 ** d;
const SERVICES = ['api', 'checkout', 'search', 'login', 'cdn', 'billing', 'status', 'mail', 'docs', 'webhooks'];
const REGIONS = ['eu-west', 'us-east', 'ap-south', 'eu-central'];

export interface FixtureOptions {
  monitors: number;
  days: number;
  /** First day, UTC midnight. */
  from?: string;
  timezone?: string;
  generatedAt?: string;
}

function period(o: FixtureOptions) {
  const from = o.from ?? '2026-08-01T00:00:00.000Z';
  const to = new Date(Date.parse(from) + o.days * DAY).toISOString();
  return { from, to, timezone: o.timezone ?? 'UTC', preset: null };
}

function dates(o: FixtureOptions): string[] {
  const start = Date.parse(period(o).from);
  return Array.from({ length: o.days }, (_, i) => new Date(start + i * DAY).toISOString().slice(0, 10));
}

export function monitorName(i: number): string {
  if (i === 3) return UNICODE_NAME;
  return `${SERVICES[i % SERVICES.length]}-${REGIONS[i % REGIONS.length]}-${String(i).padStart(4, '0')} https endpoint`;
}

export function availabilityFixture(o: FixtureOptions): AvailabilityReport {
  const rnd = random(1);
  const p = period(o);
  const days = dates(o);
  const daySeconds = 86_400;
  let down = 0;
  let monitored = 0;
  let incidents = 0;
  const monitors: AvailabilityMonitor[] = Array.from({ length: o.monitors }, (_, i) => {
    const daily = days.map((date) => {
      const bad = rnd() < 0.04;
      const d = bad ? Math.round(rnd() * 3600) : 0;
      return {
        date,
        downtime_seconds: d,
        degraded_seconds: 0,
        uptime_percent: round((100 * (daySeconds - d)) / daySeconds, 5),
      };
    });
    const mDown = daily.reduce((n, d) => n + d.downtime_seconds, 0);
    const mMon = o.days * daySeconds;
    const own = daily
      .map((d, k) => ({ d, k }))
      .filter(({ d }) => d.downtime_seconds > 0)
      .map(({ d, k }, n) => {
        const since = Date.parse(p.from) + k * DAY + 3_600_000 * (1 + (n % 20));
        return {
          id: `inc_${i}_${n}`,
          number: i * 100 + n + 1,
          opened_at: new Date(since + 120_000).toISOString(),
          down_since: new Date(since).toISOString(),
          resolved_at: new Date(since + d.downtime_seconds * 1000).toISOString(),
          duration_seconds: d.downtime_seconds,
          cause: n % 2 === 0 ? 'HTTP 503 Service Unavailable' : 'connect ETIMEDOUT',
        };
      });
    down += mDown;
    monitored += mMon;
    incidents += own.length;
    return {
      monitor_id: `mon_${String(i).padStart(6, '0')}`,
      name: monitorName(i),
      target: `https://${SERVICES[i % SERVICES.length]}.example.com/health`,
      uptime_percent: round((100 * (mMon - mDown)) / mMon, 5),
      downtime_seconds: mDown,
      degraded_seconds: 0,
      paused_seconds: 0,
      no_data_seconds: 0,
      maintenance_seconds: 0,
      unmonitored_seconds: 0,
      monitored_seconds: mMon,
      coverage_percent: 100,
      checks: o.days * 1440,
      failed_checks: own.length * 4,
      incident_count: own.length,
      longest_incident_seconds: Math.max(0, ...own.map((x) => x.duration_seconds)),
      incidents: own,
      daily,
    };
  });
  return {
    report: 'availability',
    period: p,
    generated_at: o.generatedAt ?? p.to,
    methodology: 'Synthetic data.',
    summary: {
      monitors: o.monitors,
      uptime_percent: round((100 * (monitored - down)) / monitored, 5),
      downtime_seconds: down,
      degraded_seconds: 0,
      monitored_seconds: monitored,
      incidents,
    },
    monitors,
  };
}

export function performanceFixture(o: FixtureOptions): PerformanceReport {
  const rnd = random(2);
  const p = period(o);
  const days = dates(o);
  const monitors: PerformanceMonitor[] = Array.from({ length: o.monitors }, (_, i) => {
    const base = 40 + (i % 17) * 15;
    const daily = days.map((date, k) => {
      const slow = rnd() < 0.05 ? 2.5 : 1;
      const p50 = round(base * slow * (1 + 0.1 * Math.sin(k / 3)), 1);
      return { date, p50_ms: p50, p95_ms: round(p50 * 2.1, 1), p99_ms: round(p50 * 3.4, 1) };
    });
    const p50 = round(base * 1.02, 1);
    return {
      monitor_id: `mon_${String(i).padStart(6, '0')}`,
      name: monitorName(i),
      target: `https://${SERVICES[i % SERVICES.length]}.example.com/health`,
      checks: o.days * 1440,
      successful_checks: o.days * 1440 - 12,
      mean_ms: round(base * 1.3, 1),
      min_ms: round(base * 0.6, 1),
      max_ms: round(base * 9, 1),
      p50_ms: p50,
      p95_ms: round(p50 * 2.1, 1),
      p99_ms: round(p50 * 3.4, 1),
      previous: { p50_ms: round(p50 * 0.95, 1), p95_ms: round(p50 * 2, 1), p99_ms: round(p50 * 3.1, 1) },
      trend_percent: round(((2.1 - 2) / 2) * 100 + (i % 5) * 3, 5),
      anomalies:
        i % 7 === 0
          ? [
              {
                id: `evt_${i}`,
                category: 'performance',
                kind: 'performance_anomaly',
                severity: 'warning',
                summary: `p95 response time ${round(p50 * 5, 0)} ms is above the learnt baseline of ${round(p50 * 2, 0)} ms for 20 minutes`,
                region_code: REGIONS[i % REGIONS.length]!,
                started_at: new Date(Date.parse(p.from) + (i % o.days) * DAY + 7_200_000).toISOString(),
                ended_at: new Date(Date.parse(p.from) + (i % o.days) * DAY + 8_400_000).toISOString(),
              },
            ]
          : [],
      daily,
    };
  });
  return {
    report: 'performance',
    period: p,
    generated_at: o.generatedAt ?? p.to,
    methodology: 'Synthetic data.',
    summary: { monitors: o.monitors, checks: monitors.reduce((n, m) => n + m.checks, 0) },
    monitors,
  };
}

export function slaFixture(o: FixtureOptions & { targets: number }): SlaReport {
  const p = period(o);
  const targets = Array.from({ length: o.targets }, (_, i) => {
    const target = [99.9, 99.95, 99.5, 99.99][i % 4]!;
    const whole = 31 * 86_400;
    const budget = round(((100 - target) / 100) * whole, 3);
    const used = [600, 3000, 50, 0][i % 4]! * (1 + (i % 3));
    const monitored = 20 * 86_400;
    return {
      sla_target_id: `sla_${i}`,
      name: i === 0 ? `Customer API (${UNICODE_NAME})` : `Service level ${i + 1}: ${SERVICES[i % SERVICES.length]}`,
      target_percent: target,
      period: 'monthly',
      combine: 'any_down' as const,
      current: {
        from: p.from,
        to: new Date(Date.parse(p.from) + whole * 1000).toISOString(),
        monitored_seconds: monitored,
        downtime_seconds: used,
        achieved_percent: round((100 * (monitored - used)) / monitored, 5),
        met: null,
        status: 'in_progress' as const,
        elapsed_seconds: monitored,
        error_budget_seconds: budget,
        error_budget_used_seconds: used,
        error_budget_used_percent: round((100 * used) / budget, 5),
        error_budget_exhausted: used >= budget,
        error_budget_remaining_seconds: round(budget - used, 3),
        error_budget_remaining_percent: round((100 * (budget - used)) / budget, 5),
        burn_rate: round(used / monitored / ((100 - target) / 100), 5),
      },
      periods: [
        {
          from: new Date(Date.parse(p.from) - 31 * DAY).toISOString(),
          to: p.from,
          monitored_seconds: whole,
          downtime_seconds: 120,
          achieved_percent: round((100 * (whole - 120)) / whole, 5),
          met: (100 * (whole - 120)) / whole >= target,
          status: (100 * (whole - 120)) / whole >= target ? ('met' as const) : ('missed' as const),
        },
      ],
      monitors: [0, 1].map((k) => ({
        monitor_id: `mon_${String(i + k).padStart(6, '0')}`,
        name: monitorName(i + k),
        achieved_percent: round((100 * (monitored - used / (k + 1))) / monitored, 5),
        downtime_seconds: used / (k + 1),
      })),
    };
  });
  const met = targets.filter((t) => t.periods[0]!.met).length;
  const exhausted = targets.filter((t) => t.current.error_budget_exhausted).length;
  return {
    report: 'sla',
    period: p,
    generated_at: o.generatedAt ?? p.to,
    methodology: 'Synthetic data.',
    summary: {
      targets: targets.length,
      in_progress: targets.length,
      budget_exhausted: exhausted,
      no_data: 0,
      met,
      missed: targets.length - met,
    },
    targets,
  };
}

export function incidentsFixture(o: FixtureOptions & { incidents: number }): IncidentsReportShape {
  const rnd = random(3);
  const p = period(o);
  const incidents = Array.from({ length: o.incidents }, (_, i) => {
    const opened = Date.parse(p.from) + Math.floor(rnd() * o.days * DAY);
    const tta = i % 5 === 4 ? null : Math.round(60 + rnd() * 900);
    const open = i % 11 === 10;
    const ttr = open ? null : Math.round(300 + rnd() * 5400);
    return {
      id: `inc_${i}`,
      number: i + 1,
      title: `${monitorName(i % 12)} is down`,
      source: i % 6 === 5 ? 'intelligence' : i % 9 === 8 ? 'manual' : 'monitor',
      monitor_id: `mon_${String(i % 12).padStart(6, '0')}`,
      cause: 'HTTP 503 Service Unavailable',
      status: open ? (tta === null ? 'open' : 'acknowledged') : 'resolved',
      opened_at: new Date(opened).toISOString(),
      acknowledged_at: tta === null ? null : new Date(opened + tta * 1000).toISOString(),
      resolved_at: ttr === null ? null : new Date(opened + ttr * 1000).toISOString(),
      duration_seconds: ttr ?? Math.round((Date.parse(p.to) - opened) / 1000),
      time_to_acknowledge_seconds: tta,
      time_to_resolve_seconds: ttr,
    };
  }).sort((a, b) => a.opened_at.localeCompare(b.opened_at));
  const by_source: Record<string, number> = {};
  for (const i of incidents) by_source[i.source] = (by_source[i.source] ?? 0) + 1;
  const mean = (xs: number[]) => (xs.length === 0 ? null : round(xs.reduce((a, b) => a + b, 0) / xs.length, 3));
  const med = (xs: number[]) => {
    if (xs.length === 0) return null;
    const s = [...xs].sort((a, b) => a - b);
    return s.length % 2 ? s[s.length >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
  };
  const tta = incidents.flatMap((i) => (i.time_to_acknowledge_seconds === null ? [] : [i.time_to_acknowledge_seconds]));
  const ttr = incidents.flatMap((i) => (i.time_to_resolve_seconds === null ? [] : [i.time_to_resolve_seconds]));
  return {
    report: 'incidents',
    period: p,
    generated_at: o.generatedAt ?? p.to,
    methodology: 'Synthetic data.',
    summary: {
      count: incidents.length,
      by_source,
      mtta_seconds: mean(tta),
      mttr_seconds: mean(ttr),
      median_tta_seconds: med(tta),
      median_ttr_seconds: med(ttr),
    },
    incidents,
  };
}

export function intelligenceFixture(o: FixtureOptions & { events: number }): IntelligenceReportShape {
  const p = period(o);
  const categories = ['dns', 'tls', 'headers', 'content', 'infrastructure', 'performance', 'security'];
  const events = Array.from({ length: o.events }, (_, i) => ({
    id: `evt_${i}`,
    monitor_id: `mon_${String(i % 9).padStart(6, '0')}`,
    category: categories[i % categories.length]!,
    kind: i % 4 === 0 ? 'anomaly_alert' : 'significant_change',
    severity: i % 10 === 0 ? 'critical' : i % 3 === 0 ? 'warning' : 'info',
    summary:
      i % 2 === 0
        ? `The certificate of ${monitorName(i % 9)} changed issuer from Let's Encrypt R10 to Let's Encrypt R11`
        : `Server header changed from nginx/1.24 to nginx/1.26`,
    region_code: null,
    started_at: new Date(Date.parse(p.from) + ((i * 7) % o.days) * DAY + i * 60_000).toISOString(),
    ended_at: null,
  })).sort((a, b) => a.started_at.localeCompare(b.started_at));
  const by_category: Record<string, number> = {};
  const by_monitor: Record<string, number> = {};
  for (const e of events) {
    by_category[e.category] = (by_category[e.category] ?? 0) + 1;
    by_monitor[e.monitor_id] = (by_monitor[e.monitor_id] ?? 0) + 1;
  }
  return {
    report: 'intelligence',
    period: p,
    generated_at: o.generatedAt ?? p.to,
    methodology: 'Synthetic data.',
    summary: { by_category, by_monitor },
    events,
    correlations:
      events.length < 2
        ? []
        : [
            {
              monitor_ids: ['mon_000000', 'mon_000003'],
              shared: 'ip 203.0.113.7',
              window: { from: events[0]!.started_at, to: events[1]!.started_at },
              events: events.slice(0, 2).map((e) => e.id),
            },
          ],
  };
}

export function monitorHealthFixture(o: FixtureOptions): MonitorHealthReportShape {
  const p = period(o);
  const kinds = ['noisy', 'flapping', 'misconfigured', 'never_succeeded'] as const;
  const reasons = {
    noisy:
      'Opened 14 incidents in the period, 11 of them resolved within 2 minutes (threshold: 10 incidents, 70 % short).',
    flapping: 'Changed state 38 times in 24 hours (threshold: 20), the longest stable stretch was 41 minutes.',
    misconfigured: 'Every failure in the period was HTTP 404 on the same path since the monitor was last edited.',
    never_succeeded: 'No check has succeeded since the monitor was created 9 days ago (1,296 checks).',
  };
  return {
    report: 'monitor_health',
    period: p,
    generated_at: o.generatedAt ?? p.to,
    methodology: 'Synthetic data.',
    monitors: Array.from({ length: o.monitors }, (_, i) => ({
      monitor_id: `mon_${String(i).padStart(6, '0')}`,
      name: monitorName(i),
      findings: i % 3 === 0 ? [] : [{ kind: kinds[i % 4]!, reason: reasons[kinds[i % 4]!], evidence: { index: i } }],
    })),
  };
}
