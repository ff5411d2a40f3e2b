/**
 * The services the reports module reads, composed by the same functions in both composition roots that need them:
 * main.ts (the process: buildServices) and report-worker.compose.ts (a report worker thread, on a database handle of
 * its own and without signals, listeners or background roles). A change to how these services are wired is made
 * here once, so a report built on a worker reads exactly what one built in the process would.
 */
import type { TocsinConfig } from './config/index.ts';
import { AlertLinks } from './modules/alerting/index.ts';
import type { Actor } from './modules/auth/index.ts';
import { ExecutionsService, RollupsService, validateAssertion } from './modules/checks/index.ts';
import { EventsService } from './modules/events/index.ts';
import { dependenciesFromStatuses, IncidentsService } from './modules/incidents/index.ts';
import { IntelligenceService } from './modules/intelligence/index.ts';
import { createMonitorTargetGuard, MonitorsService } from './modules/monitors/index.ts';
import { createOrgs, Plans, type OrgsService } from './modules/orgs/index.ts';
import type { ReportsModuleDeps } from './modules/reports/index.ts';
import type { Clock } from './platform/clock.ts';
import type { ChangeSignals, Database } from './platform/db/index.ts';
import { systemResolver } from './platform/net/index.ts';

export interface ReportSourceServices {
  executions: ExecutionsService;
  rollups: RollupsService;
  incidents: IncidentsService;
  intelligence: IntelligenceService;
  monitors: MonitorsService;
  orgs: OrgsService;
}

/** A monitor as an actor may see it (executions and rollups check visibility with it). */
export type MonitorLookup = { get: (actor: Actor, id: string) => ReturnType<MonitorsService['get']> };

interface Base {
  config: TocsinConfig;
  database: Database;
  clock: Clock;
}

/** Plans and organizations. */
export function composeOrgServices({ config, database, clock }: Base): { plans: Plans; orgs: OrgsService } {
  const plans = new Plans(config.plans);
  const orgs = createOrgs({ database, clock, defaultPlan: config.defaultPlan, defaultRegion: config.defaultRegion });
  return { plans, orgs };
}

/**
 * Monitors and the events outbox. `signals`: the process's change signals (a committed event wakes the outbox);
 * a report worker has none (it records no events).
 */
export function composeMonitorServices(
  s: Base & { plans: Plans; orgs: OrgsService; alertLinks: AlertLinks; signals?: ChangeSignals },
): { monitors: MonitorsService; monitorLookup: MonitorLookup; events: EventsService } {
  const { config, database, clock, orgs } = s;
  const monitors = new MonitorsService({
    database,
    clock,
    plans: s.plans,
    regions: config.regions,
    publicUrl: config.publicUrl,
    defaultRegionOf: async (organizationId) => (await orgs.getOrganization(organizationId)).defaultRegion,
    validateAssertion,
    // The monitor ↔ destination link rows belong to the alerting module.
    alertLinks: s.alertLinks,
    lockOrganization: (tx, organizationId) => orgs.lockOrganization(tx, organizationId),
    targetGuard: createMonitorTargetGuard({
      allowPrivateTargets: config.network.allowPrivateTargets,
      resolver: systemResolver,
    }),
  });
  /** For modules that check a monitor's visibility to an actor (executions, history). */
  const monitorLookup = { get: (actor: Actor, id: string) => monitors.get({ actor, db: database, clock }, id) };
  const events = new EventsService({ database, clock, ...(s.signals && { signals: s.signals }) });
  return { monitors, monitorLookup, events };
}

/** Incidents, intelligence, executions and rollups over the monitors and events above. */
export function composeReportSourceServices(
  s: Base & { events: EventsService; monitors: MonitorsService; monitorLookup: MonitorLookup; orgs: OrgsService },
): Pick<ReportSourceServices, 'incidents' | 'intelligence' | 'executions' | 'rollups'> {
  const { config, database, clock, events, monitors, orgs } = s;
  const incidents = new IncidentsService({
    database,
    clock,
    events,
    monitors,
    // DECISIONS §17: parents' states from the monitors' statuses (a maintenance gate can wrap this port).
    dependencies: dependenciesFromStatuses(monitors),
    // The timeline names people, not their ids.
    people: {
      nameOf: async (userId) => {
        const user = await orgs.findUser(userId);
        return user ? (user.name ?? user.email) : null;
      },
    },
  });
  // Checks, observations and gradings → intelligence events (+ outbox, + incidents when a monitor asks for them).
  const intelligence = new IntelligenceService({ database, clock, events, monitors, incidents });
  const executions = new ExecutionsService({ database, monitors: s.monitorLookup });
  const rollups = new RollupsService({
    database,
    clock,
    retentionDays: config.retention.executionsDays,
    monitors: s.monitorLookup,
    executions,
  });
  return { incidents, intelligence, executions, rollups };
}

export function reportSourcesOf(
  s: ReportSourceServices,
): Pick<ReportsModuleDeps, 'rollups' | 'incidents' | 'anomalies' | 'monitors' | 'organizationName' | 'members'> {
  return {
    rollups: {
      monitorKeys: (ids) => s.executions.monitorKeys(ids),
      rollupRows: (keys, from, to, resolution) => s.rollups.rollupRows(keys, from, to, resolution),
      rollupSnapshot: (keys, days, hourBlocks, prefixes) =>
        s.rollups.rollupSnapshot(keys, days, hourBlocks, { prefixes }),
      executionTally: (keys, from, to, now) => s.rollups.executionTally(keys, from, to, now),
    },
    incidents: s.incidents,
    anomalies: s.intelligence,
    monitors: s.monitors,
    organizationName: async (organizationId) => (await s.orgs.getOrganization(organizationId)).name,
    members: {
      memberIdsOf: async (organizationId) => new Set((await s.orgs.listMembers(organizationId)).map((m) => m.user.id)),
    },
  };
}
