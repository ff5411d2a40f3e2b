import { toIso } from '../../platform/clock.ts';
import type { Database } from '../../platform/db/index.ts';
import type { AuditTrail } from '../audit/index.ts';
import type { Incident, MonitorTransition } from '../incidents/index.ts';
import type { NoticesService } from './notice.service.ts';
import { StatusPagesRepository } from './status-pages.repository.ts';

export interface NoticeDraftsDeps {
  notices: NoticesService;
  /** The monitor's open incident as the transaction sees it (IncidentsService.findOpenForMonitor). */
  incidents: { findOpenForMonitor(db: Database, monitorId: string): Promise<Incident | null> };
  /** The regions whose latest check of the monitor failed, as the transaction sees them (the check engine's state). */
  failingRegions: (db: Database, monitorId: string) => Promise<string[]>;
  /** The system's audit recorder: drafts are changes nobody asked for by hand. */
  audit: AuditTrail;
}

/**
 * auto_notices (DECISIONS §18): a monitor incident that opened and alerts (not held by a parent or maintenance)
 * drafts an incident notice on every page that shows the monitor and asked for drafts, with what the product knows:
 * the monitor, since when, the cause and the regions that saw it. A transition listener placed after the incidents
 * step (main.ts), so the draft commits with the incident or not at all; a person reads and publishes it.
 */
export class NoticeDrafts {
  readonly name = 'status page notice drafts';
  private readonly deps: NoticeDraftsDeps;
  constructor(deps: NoticeDraftsDeps) {
    this.deps = deps;
  }

  async onTransition(tx: Database, t: MonitorTransition): Promise<void> {
    if (t.to !== 'down') return;
    const incident = await this.deps.incidents.findOpenForMonitor(tx, t.monitorId);
    // Opened by this verdict (not an outage that was already open), and alerting (held ones tell nobody).
    if (!incident || incident.openedAt !== t.at || incident.blockedBy !== null) return;
    const pages = (await new StatusPagesRepository(tx).listShowingMonitor(t.organizationId, t.monitorId)).filter(
      (p) => p.autoNotices && p.monitorIds.includes(t.monitorId),
    );
    if (pages.length === 0) return;
    const regions = await this.deps.failingRegions(tx, t.monitorId);
    const since = incident.downSince !== null ? Math.min(incident.downSince, incident.openedAt) : incident.openedAt;
    const body = draftBody(t.monitorName, since, t.cause, regions);
    for (const page of pages) {
      if (await this.deps.notices.hasNoticeOfIncident(tx, page.id, incident.id)) continue;
      await this.deps.notices.draft(tx, this.deps.audit, {
        organizationId: t.organizationId,
        statusPageId: page.id,
        title: `${t.monitorName} is unavailable`.slice(0, 200),
        impact: 'major',
        affectedMonitorIds: [t.monitorId],
        incidentId: incident.id,
        body,
      });
    }
  }
}

/** Markdown characters in a name or cause are shown as written, not read as formatting. */
function literal(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!<>|~]/g, (c) => `\\${c}`);
}

/** The facts of the draft's first update, for a person to edit before publishing. */
export function draftBody(
  monitorName: string,
  since: number,
  cause: string | null,
  regions: readonly string[],
): string {
  const lines = [
    `We are investigating a problem with **${literal(monitorName)}**.`,
    '',
    `- Since: ${toIso(since).slice(0, 16).replace('T', ' ')} UTC`,
  ];
  if (regions.length > 0) lines.push(`- Seen from: ${regions.map(literal).join(', ')}`);
  if (cause) lines.push(`- Check result: ${literal(cause)}`);
  return lines.join('\n');
}
