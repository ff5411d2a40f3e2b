/**
 * The services the reports module reads, composed by the same functions in both composition roots that need them:
 * main.ts (the process: buildServices) and report-worker.compose.ts (a report worker thread, on a database handle of
 * its own and without signals, listeners or background roles). A change to how these services are wired is made
 * here once, so a report built on a worker reads exactly what one built in the process would.
 */
import type { TocsinConfig } from './config/index.ts';
import { AlertLinks } from './modules/alerting/index.ts';
import type { Actor } from './modules/auth/index.ts';
import { ExecutionsService, RollupsService, unconfirmedFailures, validateAssertion } from './modules/checks/index.ts';
import { EventsService } from './modules/events/index.ts';
import { dependenciesFromStatuses, IncidentsService } from './modules/incidents/index.ts';
import { IntelligenceService } from './modules/intelligence/index.ts';
import { MaintenanceAlertGate, MaintenanceService, type MaintenanceStatusPages } from './modules/maintenance/index.ts';
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
  maintenance: MaintenanceService;
}

/** A monitor as an actor may see it (executions and rollups check visibility with it). */
export type MonitorLookup = {
  get: (actor: Actor, id: string) => ReturnType<MonitorsService['get']>;
  visibleIds: (actor: Actor, ids: readonly string[]) => Promise<Set<string>>;
};

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
    defaultRegionOf: async (db, organizationId) => (await orgs.getOrganizationIn(db, organizationId)).defaultRegion,
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
  const monitorLookup = {
    get: (actor: Actor, id: string) => monitors.get({ actor, db: database, clock }, id),
    visibleIds: (actor: Actor, ids: readonly string[]) => monitors.visibleIds({ actor, db: database, clock }, ids),
  };
  const events = new EventsService({ database, clock, ...(s.signals && { signals: s.signals }) });
  return { monitors, monitorLookup, events };
}

/** Incidents, intelligence, executions and rollups over the monitors and events above. */
export function composeReportSourceServices(
  s: Base & {
    events: EventsService;
    monitors: MonitorsService;
    monitorLookup: MonitorLookup;
    orgs: OrgsService;
    /** Where windows may be announced (checked on save); a report worker saves none. */
    statusPages?: MaintenanceStatusPages | null;
  },
): Pick<ReportSourceServices, 'incidents' | 'intelligence' | 'executions' | 'rollups' | 'maintenance'> {
  const { config, database, clock, events, monitors, orgs } = s;
  // Maintenance windows: reports exclude their time, the incidents decision holds outages inside them.
  const maintenance = new MaintenanceService({ database, monitors, statusPages: s.statusPages ?? null });
  const maintenanceGate = new MaintenanceAlertGate({ windows: maintenance, monitors, database });
  const incidents = new IncidentsService({
    database,
    clock,
    events,
    monitors,
    // DECISIONS §17: parents' states from the monitors' statuses, the windows they are in and the check engine's
    // counters (a parent failing its checks, not yet confirmed down, holds its children too).
    dependencies: dependenciesFromStatuses(monitors, {
      maintenanceUntil: async (tx, parentIds, at) => {
        const ends = new Map<string, number>();
        for (const parent of await monitors.findManyAnywhere(parentIds, tx)) {
          if (parent.paused) continue;
          const covering = await maintenance.coveringAt(tx, parent.organizationId, parent, at);
          if (covering.length > 0) ends.set(parent.id, Math.max(...covering.map((c) => c.occurrence.end)));
        }
        return ends;
      },
      unconfirmedFailures: (tx, parentIds) => unconfirmedFailures(tx, parentIds),
    }),
    maintenance: maintenanceGate,
    // The timeline names people, not their ids.
    people: {
      nameOf: async (userId) => {
        const user = await orgs.findUser(userId);
        return user ? (user.name ?? user.email) : null;
      },
    },
  });
  // Checks, observations and gradings → intelligence events (+ outbox, + incidents when a monitor asks for them).
  // Inside a window that suppresses alerts, intelligence stores what it finds and alerts nothing (DECISIONS §16).
  const intelligence = new IntelligenceService({
    database,
    clock,
    events,
    monitors,
    incidents,
    maintenance: maintenanceGate,
  });
  const executions = new ExecutionsService({ database, monitors: s.monitorLookup });
  const rollups = new RollupsService({
    database,
    clock,
    retentionDays: config.retention.executionsDays,
    monitors: s.monitorLookup,
    executions,
  });
  return { incidents, intelligence, executions, rollups, maintenance };
}

export function reportSourcesOf(
  s: ReportSourceServices,
): Pick<
  ReportsModuleDeps,
  'rollups' | 'incidents' | 'anomalies' | 'monitors' | 'organizationName' | 'members' | 'maintenance'
> {
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
    maintenance: s.maintenance,
    organizationName: async (organizationId) => (await s.orgs.getOrganization(organizationId)).name,
    members: {
      memberIdsOf: async (organizationId) => new Set((await s.orgs.listMembers(organizationId)).map((m) => m.user.id)),
    },
  };
}
