import type { AppServices } from '../../http/app.deps.ts';
import { SCOPES, type ServiceContext } from '../../modules/auth/index.ts';
import type { CheckResult, Observation } from '../../modules/checks/index.ts';
import { IncidentRemindersRole } from '../../modules/incidents/index.ts';
import type { ManualClock } from '../../platform/clock.ts';
import type { Database } from '../../platform/db/index.ts';
import type { Logger } from '../../platform/logger.ts';
import {
  checkedAt,
  latencyAt,
  outageAt,
  planDemo,
  type DemoPlan,
  type DemoPlanOptions,
  type PlannedMonitor,
} from './demo.plan.ts';

export interface DemoGeneratorDeps {
  services: AppServices;
  database: Database;
  /** Moved through the history: every write (monitor changes, incidents, acknowledgements) happens "then". */
  clock: ManualClock;
  logger: Logger;
  /**
   * The demo's monitors are leased to this owner until `until` (real epoch ms) from the transaction that creates
   * them, so a `tocsin serve` running meanwhile does not check them while their history is written (its results at
   * the present would land among the past's); released when the history is written, or when the demo fails.
   */
  hold?: { owner: string; until: number };
}

export interface DemoOptions extends DemoPlanOptions {
  organizationName: string;
  email: string;
  /** Told of the progress now and then (stderr in the command). */
  progress?(done: number, total: number): void;
}

export interface DemoResult {
  organization_id: string;
  user_id: string;
  api_key: string;
  monitor_ids: string[];
  sla_target_ids: string[];
  custom_report_id: string;
  from: string;
  to: string;
  interval_seconds: number;
  checks: number;
  incidents: number;
  reminders: number;
  /** The plan the history was made from (tests compare reports with it). */
  plan: DemoPlan;
}

/** Results handed to the engine in one transaction, at most (several ticks are batched while nothing happens). */
const MAX_BATCH = 2_000;

/**
 * Makes a demo organization and plays `planDemo`'s history through the write paths of real checks: monitors are
 * created, paused and resumed through MonitorsService, every check result goes through CheckEngine.applyResults
 * (executions, hourly and daily rollups, check state, the monitor timeline, incidents, intelligence, outbox), incidents
 * are acknowledged through IncidentsService and reminded by the reminders role, all with the clock set to the moment
 * each happens. SLA targets and a custom report (shared with the organization) are made through their services. Quiet stretches (no outage, no change) go to the engine several ticks per batch.
 */
export async function generateDemo(deps: DemoGeneratorDeps, options: DemoOptions): Promise<DemoResult> {
  try {
    return await playDemo(deps, options);
  } finally {
    if (deps.hold) await deps.services.checks.engine.releaseHold(deps.hold.owner);
  }
}

async function playDemo(deps: DemoGeneratorDeps, options: DemoOptions): Promise<DemoResult> {
  const { services, clock } = deps;
  const plan = planDemo(options);
  clock.set(plan.start);
  const org = await services.orgs.createOrganization({ name: options.organizationName, plan: 'enterprise' });
  const user = await services.orgs.ensureUser({ email: options.email });
  await services.orgs.addMember(org.id, user.id, 'owner');
  const key = await services.auth.issueKey({
    organizationId: org.id,
    name: 'demo',
    scopes: [...SCOPES],
    environments: ['production', 'staging', 'development'],
    userId: user.id,
    createdBy: user.id,
  });
  const actor = await services.auth.authenticate(key.key);
  if (!actor) throw new Error('the demo key was not accepted');
  // What the demo makes is in its organization's audit log, as an operator command's work.
  const audit = services.audit.trail({
    actor: { type: 'system', id: null, name: 'tocsin demo' },
    ip: null,
    requestId: null,
  });
  const ctx: ServiceContext = { actor, db: deps.database, clock, audit };
  const reminders = new IncidentRemindersRole({
    incidents: services.incidents,
    monitors: services.monitors,
    clock,
    logger: deps.logger,
  });

  const ids = new Map<number, string>();
  const hold = deps.hold;
  if (hold) {
    // In the transaction that saves a demo monitor (after the schedule's own listener wrote its rows): no runner can
    // claim it between its creation (or resumption) and the hold.
    services.monitors.addListener({
      monitorSaved: async (tx, monitor) => {
        if (monitor.organizationId === org.id && !monitor.paused)
          await services.checks.engine.hold(tx, hold.owner, [monitor.id], hold.until);
      },
      monitorDeleted: async () => {},
    });
  }
  const create = async (m: PlannedMonitor) => {
    const created = await createMonitor(ctx, m);
    ids.set(m.index, created.id);
  };
  const createMonitor = (c: ServiceContext, m: PlannedMonitor) =>
    services.monitors.create(c, {
      name: m.name,
      type: m.type,
      target: m.target,
      interval_seconds: plan.intervalMs / 1000,
      tags: m.tags,
      environment: m.environment,
      config: {
        ...configOf(m),
        failure_threshold: 2,
        success_threshold: 1,
        reminder_interval_minutes: m.reminderMinutes,
      },
    });
  for (const m of plan.monitors) if (m.createdAt === plan.start) await create(m);
  const slaIds: string[] = [];
  const createSlaTargets = async () => {
    for (const t of plan.slaTargets.slice(slaIds.length)) {
      if (!t.monitorIndexes.every((i) => ids.has(i))) break;
      const created = await services.slaTargets.create(ctx, {
        name: t.name,
        monitor_ids: t.monitorIndexes.map((i) => ids.get(i)!),
        target_percent: t.targetPercent,
        period: t.period,
      });
      slaIds.push(created.id);
    }
  };
  await createSlaTargets();

  // Instants at which something other than a check happens, and the stretches checked one tick at a time.
  const changes = new Set<number>();
  const busy: Array<[number, number]> = [];
  for (const m of plan.monitors) {
    if (m.createdAt > plan.start) changes.add(m.createdAt);
    if (m.pause) changes.add(m.pause.from).add(m.pause.to);
    for (const o of m.outages) {
      busy.push([o.firstFailure, o.recovery]);
      if (o.acknowledgeAt !== null) changes.add(o.acknowledgeAt);
    }
  }
  const inOutage = (at: number) => busy.some(([f, r]) => at >= f && at <= r);

  let checks = 0;
  let remindersSent = 0;
  const total = Math.round((plan.end - plan.start) / plan.intervalMs);
  let pending: CheckResult[] = [];
  const flush = async () => {
    if (pending.length === 0) return;
    clock.set(pending[pending.length - 1]!.observation.started_at);
    await services.checks.engine.applyResults('demo', pending);
    // Intelligence reads the batch after its commit: played before the clock moves on, as if checked live.
    await services.checks.engine.analyticsSettled();
    checks += pending.length;
    pending = [];
  };
  for (let k = 0, at = plan.start; at < plan.end; k++, at += plan.intervalMs) {
    const eventful = changes.has(at) || inOutage(at);
    if (eventful) {
      await flush();
      clock.set(at);
      for (const m of plan.monitors) {
        if (m.createdAt === at && !ids.has(m.index)) await create(m);
        if (m.pause?.from === at) await services.monitors.pause(ctx, ids.get(m.index)!);
        if (m.pause?.to === at) await services.monitors.resume(ctx, ids.get(m.index)!);
      }
      await createSlaTargets();
    }
    for (const m of plan.monitors) {
      if (!checkedAt(m, at)) continue;
      pending.push({
        monitorId: ids.get(m.index)!,
        regionCode: 'local',
        dueAt: at,
        observation: observationOf(m, at, options.seed),
      });
    }
    if (eventful || pending.length >= MAX_BATCH) await flush();
    if (eventful) {
      for (const m of plan.monitors) {
        for (const o of m.outages) {
          if (o.acknowledgeAt !== at) continue;
          const open = await services.incidents.list(
            ctx,
            { monitorId: ids.get(m.index)!, status: 'opened', source: 'monitor' },
            { limit: 1 },
          );
          for (const incident of open.data) await services.incidents.acknowledge(ctx, incident.id);
        }
      }
      remindersSent += await reminders.tick();
    }
    if (k % 500 === 0) options.progress?.(k, total);
  }
  await flush();
  clock.set(Math.max(plan.end - plan.intervalMs, plan.start));
  await createSlaTargets();
  const customReport = await services.customReports.create(ctx, {
    name: 'Monthly service review',
    period: 'last_30_days',
    timezone: 'Europe/Berlin',
    visibility: 'organization',
    widgets: [
      { kind: 'availability', title: 'Customer-facing availability', tags: ['web', 'payments'] },
      { kind: 'performance', title: 'API latency', tags: ['api'] },
      ...(slaIds.length > 0
        ? [{ kind: 'sla' as const, title: 'Checkout SLA', options: { sla_target_ids: [slaIds[0]!] } }]
        : []),
      { kind: 'incidents', title: 'Incidents' },
      { kind: 'monitor_health', title: 'Monitors that need attention' },
    ],
  });
  const incidents = plan.monitors.reduce((n, m) => n + m.outages.length, 0);
  return {
    organization_id: org.id,
    user_id: user.id,
    api_key: key.key,
    monitor_ids: plan.monitors.map((m) => ids.get(m.index)!),
    sla_target_ids: slaIds,
    custom_report_id: customReport.id,
    from: new Date(plan.start).toISOString(),
    to: new Date(plan.end).toISOString(),
    interval_seconds: plan.intervalMs / 1000,
    checks,
    incidents,
    reminders: remindersSent,
    plan,
  };
}

function configOf(m: PlannedMonitor): Record<string, unknown> {
  switch (m.type) {
    case 'http':
      return { assertions: [{ type: 'status', equals: 200 }] };
    case 'dns':
      return { record_type: 'A' };
    case 'tls':
      return { alert_days_before_expiry: 14 };
    case 'tcp':
      return {};
  }
}

/** What a probe of this monitor would have reported at `at`, according to the plan. */
function observationOf(m: PlannedMonitor, at: number, seed: number): Observation {
  const outage = outageAt(m, at);
  const down = outage !== undefined || m.blips.includes(at);
  if (!down) {
    const ms = latencyAt(m, at, seed);
    const http = m.type === 'http';
    return {
      status: 'up',
      started_at: at,
      duration_ms: ms,
      timings: {
        dns_ms: Math.round(ms * 0.05),
        connect_ms: Math.round(ms * 0.15),
        tls_ms: http || m.type === 'tls' ? Math.round(ms * 0.25) : null,
        ttfb_ms: http ? Math.round(ms * 0.5) : null,
        download_ms: http ? Math.round(ms * 0.05) : null,
        total_ms: ms,
      },
      http_status: http ? 200 : null,
      assertions: http ? [{ type: 'status', equals: 200, passed: true, actual: 200 }] : [],
      error: null,
    };
  }
  const cause = outage?.cause ?? 'timeout';
  const http503 = cause === 'http_503' && m.type === 'http';
  const duration = cause === 'timeout' ? 10_000 : http503 ? 40 : 3;
  return {
    status: 'down',
    started_at: at,
    duration_ms: duration,
    timings: { dns_ms: null, connect_ms: null, tls_ms: null, ttfb_ms: null, download_ms: null, total_ms: duration },
    http_status: http503 ? 503 : null,
    assertions: http503 ? [{ type: 'status', equals: 200, passed: false, actual: 503 }] : [],
    error:
      cause === 'timeout'
        ? { code: 'timeout', message: 'no complete response within 10000 ms' }
        : http503
          ? null
          : { code: 'connect_refused', message: `connection refused by ${m.target}` },
  };
}
