import type { Database } from '../../platform/db/index.ts';
import { ScheduledReportsRepository } from './scheduled-reports.repository.ts';

/**
 * The environments each destination receives scheduled reports of (alerting's DestinationUsers port): a
 * destination receiving a report of an environment outside a key's is hidden from that key, as one alerting such
 * monitors is. An organization has few schedules, so all of them are read and matched here.
 */
export class ScheduledReportDestinationUsers {
  async environmentsOf(db: Database, organizationId: string, ids: readonly string[]): Promise<Map<string, string[][]>> {
    const wanted = new Set(ids);
    const out = new Map<string, string[][]>();
    for (const sender of await new ScheduledReportsRepository(db).destinationSenders(organizationId)) {
      for (const id of new Set(sender.destinationIds)) {
        if (!wanted.has(id)) continue;
        const lists = out.get(id) ?? [];
        lists.push(sender.environments);
        out.set(id, lists);
      }
    }
    return out;
  }
}
