import type { Incident } from '../../src/modules/incidents/index.ts';
import { IncidentsRepository } from '../../src/modules/incidents/incidents.repository.ts';
import type { Database } from '../../src/platform/db/index.ts';
import { newId } from '../../src/platform/ids.ts';

/**
 * Inserts `count` incidents of one organization in one transaction (multi-row inserts through the incidents
 * repository), numbered from the organization's next number on. The counter moves by one only: seed an
 * organization that opens no incidents afterwards. `make(i)` gives the i-th incident's fields (opened_at and the
 * rest); ids are time-sortable from opened_at.
 */
export async function seedIncidents(
  database: Database,
  organizationId: string,
  count: number,
  make: (i: number) => Partial<Incident> & { openedAt: number },
): Promise<void> {
  await database.transaction(async (tx) => {
    const repo = new IncidentsRepository(tx);
    const first = await repo.allocateNumber(organizationId);
    const rows: Incident[] = [];
    for (let i = 0; i < count; i++) {
      const over = make(i);
      rows.push({
        id: newId('inc', over.openedAt),
        organizationId,
        number: first + i,
        title: `Incident ${i}`,
        source: 'api',
        monitorId: null,
        cause: null,
        status: 'opened',
        downSince: null,
        acknowledgedAt: null,
        acknowledgedBy: null,
        resolvedAt: null,
        resolvedBy: null,
        lastReminderAt: null,
        blockedBy: null,
        suppressedBy: null,
        alertReleaseDueAt: null,
        alertReleasedAt: null,
        createdAt: over.openedAt,
        updatedAt: over.openedAt,
        ...over,
      });
    }
    await repo.insertMany(rows);
  });
}
