/**
 * What the reports module reads from the other modules, wired the same way by both composition roots that create it:
 * main.ts (the process) and report-worker.compose.ts (a report worker thread, on a database handle of its own).
 */
import type { ExecutionsService, RollupsService } from './modules/checks/index.ts';
import type { IncidentsService } from './modules/incidents/index.ts';
import type { IntelligenceService } from './modules/intelligence/index.ts';
import type { MonitorsService } from './modules/monitors/index.ts';
import type { OrgsService } from './modules/orgs/index.ts';
import type { ReportsModuleDeps } from './modules/reports/index.ts';

export interface ReportSourceServices {
  executions: ExecutionsService;
  rollups: RollupsService;
  incidents: IncidentsService;
  intelligence: IntelligenceService;
  monitors: MonitorsService;
  orgs: OrgsService;
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
