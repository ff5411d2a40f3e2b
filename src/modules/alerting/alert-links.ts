import type { Clock } from '../../platform/clock.ts';
import { PrecompiledQueries, type Database, type Dialect } from '../../platform/db/index.ts';
import { validationFailed } from '../../platform/errors.ts';
import type { MonitorAlertLinks } from '../monitors/index.ts';
import { AlertLinksRepository } from './alert-links.repository.ts';
import { DestinationsRepository } from './destinations.repository.ts';

/**
 * The monitors module's view of the links (its `MonitorAlertLinks` port): `config.alert_destination_ids` is read from
 * and written to the rows, on whatever handle the monitor change runs on.
 */
export class AlertLinks implements MonitorAlertLinks {
  private readonly clock: Clock;
  /** The page reads' SQL, compiled once per id count. */
  private readonly queries = new PrecompiledQueries();
  constructor(clock: Clock) {
    this.clock = clock;
  }

  destinationIdsOf(db: Database, organizationId: string, monitorIds: readonly string[]) {
    return new AlertLinksRepository(db).destinationIdsOf(organizationId, monitorIds, this.queries);
  }

  destinationIdsOfMonitorRow(dialect: Dialect) {
    return AlertLinksRepository.destinationIdsJsonOfMonitorRow(dialect);
  }

  async replaceForMonitor(
    tx: Database,
    organizationId: string,
    monitorId: string,
    destinationIds: readonly string[],
  ): Promise<void> {
    const links = new AlertLinksRepository(tx);
    const wanted = [...new Set(destinationIds)];
    // Checked again here, in the monitor change's transaction: a destination deleted since the monitor was validated
    // is the same 422 as one that never existed (not a foreign-key failure), and the ones found stay until commit.
    const found = await new DestinationsRepository(tx).existingIdsLocked(organizationId, wanted);
    const missing = wanted.filter((id) => !found.has(id));
    if (missing.length > 0) {
      throw validationFailed(
        missing.map((id) => ({
          field: `config.alert_destination_ids[${destinationIds.indexOf(id)}]`,
          issue: `destination ${id} does not exist in this organization`,
        })),
      );
    }
    await links.removeForMonitorExcept(organizationId, monitorId, wanted);
    await links.add(
      organizationId,
      wanted.map((destinationId) => ({ monitorId, destinationId })),
      this.clock.now(),
    );
  }

  async missingDestinationIds(
    db: Database,
    organizationId: string,
    destinationIds: readonly string[],
  ): Promise<string[]> {
    const found = await new DestinationsRepository(db).existingIds(organizationId, destinationIds);
    return destinationIds.filter((id) => !found.has(id));
  }
}
