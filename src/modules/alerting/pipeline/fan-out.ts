import type { Database } from '../../../platform/db/index.ts';
import { newId } from '../../../platform/ids.ts';
import type { DomainEvent } from '../../events/index.ts';
import type { Monitor, MonitorsService } from '../../monitors/index.ts';
import type { OrgsService } from '../../orgs/index.ts';
import { silenceOf, type Silence, type SilencesService } from '../../silences/index.ts';
import type { EventType } from '../destinations/index.ts';
import { AlertLinksRepository } from '../alert-links.repository.ts';
import { DestinationsRepository } from '../destinations.repository.ts';
import { targetKeyOf, type DeliveryRecord } from '../alerting.types.ts';
import { matchTargets } from './match.stage.ts';
import { toAlertEvent } from './snapshot.stage.ts';

/** What the fan-out of one event needs to know: its organization (null once deleted), monitor and linked destinations. */
export interface EventFacts {
  org: OrgFacts | null;
  monitor: Monitor | null;
  linkedDestinationIds: readonly string[];
}

export interface OrgFacts {
  id: string;
  name: string;
  emailAlertsEnabled: boolean;
  destinations: Array<{ id: string; events: readonly string[]; type: string; groupWindowSeconds: number }>;
  verifiedMembers: Array<{ userId: string; email: string }>;
  /** The organization's silences that hold at some moment between the batch's oldest event and now. */
  silences: Silence[];
}

/** Where the fan-out reads silences (the silences module); absent: nothing is ever held back. */
export type SilenceSource = Pick<SilencesService, 'overlapping'>;

export interface FanOutFactsDeps {
  database: Database;
  orgs: OrgsService;
  monitors: MonitorsService;
  silences?: SilenceSource;
}

/** Reads the facts of a batch of events at once: each organization, monitor and monitor's links once. */
export class FanOutFacts {
  private readonly deps: FanOutFactsDeps;
  constructor(deps: FanOutFactsDeps) {
    this.deps = deps;
  }

  async of(batch: readonly DomainEvent[], now: number): Promise<EventFacts[]> {
    const monitorIds = [...new Set(batch.flatMap((e) => (e.monitorId ? [e.monitorId] : [])))];
    const monitors = new Map((await this.deps.monitors.findManyAnywhere(monitorIds)).map((m) => [m.id, m]));
    const links = await this.linksOf(batch);
    const orgs = new Map<string, OrgFacts | null>();
    for (const id of new Set(batch.map((e) => e.organizationId))) orgs.set(id, await this.orgFacts(id));
    await this.addSilences(batch, orgs, now);
    return batch.map((e) => ({
      org: orgs.get(e.organizationId) ?? null,
      monitor: e.monitorId ? (monitors.get(e.monitorId) ?? null) : null,
      linkedDestinationIds: (e.monitorId && links.get(e.monitorId)) || [],
    }));
  }

  /** The destinations linked to each monitor the batch is about (link rows, read per organization). */
  private async linksOf(batch: readonly DomainEvent[]): Promise<Map<string, string[]>> {
    const monitorIdsByOrg = new Map<string, string[]>();
    for (const e of batch)
      if (e.monitorId)
        monitorIdsByOrg.set(e.organizationId, [...(monitorIdsByOrg.get(e.organizationId) ?? []), e.monitorId]);
    const repo = new AlertLinksRepository(this.deps.database);
    const out = new Map<string, string[]>();
    for (const [organizationId, ids] of monitorIdsByOrg)
      for (const [monitorId, linked] of await repo.destinationIdsOf(organizationId, ids)) out.set(monitorId, linked);
    return out;
  }

  /** One read for the batch: the silences of its organizations from its oldest event until now. */
  private async addSilences(batch: readonly DomainEvent[], orgs: Map<string, OrgFacts | null>, now: number) {
    const ids = [...orgs.entries()].flatMap(([id, org]) => (org ? [id] : []));
    if (!this.deps.silences || ids.length === 0 || batch.length === 0) return;
    const from = Math.min(now, ...batch.map((e) => e.occurredAt));
    for (const s of await this.deps.silences.overlapping(this.deps.database, ids, from, now))
      orgs.get(s.organizationId)?.silences.push(s);
  }

  private async orgFacts(organizationId: string): Promise<OrgFacts | null> {
    const org = await this.deps.orgs.findOrganization(organizationId);
    if (!org) return null;
    const destinations = await new DestinationsRepository(this.deps.database).listByOrganization(organizationId);
    const members = org.emailAlertsEnabled ? await this.deps.orgs.listMembers(organizationId) : [];
    return {
      id: org.id,
      name: org.name,
      emailAlertsEnabled: org.emailAlertsEnabled,
      destinations: destinations.map((d) => ({
        id: d.id,
        events: d.events,
        type: d.type,
        groupWindowSeconds: d.groupWindowSeconds,
      })),
      verifiedMembers: members
        .filter((m) => m.user.emailVerifiedAt !== null)
        .map((m) => ({ userId: m.user.id, email: m.user.email })),
      silences: [],
    };
  }
}

/**
 * snapshot → match → one delivery per target, for one event (pure apart from ids): pending, or `silenced` when a
 * silence of the organization holds it back (DECISIONS §16: recorded, never sent).
 */
export function deliveriesFor(event: DomainEvent, facts: EventFacts, publicUrl: string, now: number): DeliveryRecord[] {
  const { org, monitor } = facts;
  if (!org) return [];
  const type = event.type as EventType;
  const targets = matchTargets({
    event: { type, monitorId: event.monitorId, payload: event.payload },
    monitorDestinationIds: facts.linkedDestinationIds,
    destinations: org.destinations,
    orgEmail: { enabled: org.emailAlertsEnabled, verifiedMembers: org.verifiedMembers },
  });
  if (targets.length === 0) return [];
  const snapshot = toAlertEvent({
    event: {
      id: event.id,
      type,
      occurredAt: event.occurredAt,
      monitorId: event.monitorId,
      incidentId: event.incidentId,
      payload: event.payload,
    },
    organization: { id: org.id, name: org.name },
    monitor: monitor ? { id: monitor.id, name: monitor.name, target: monitor.target, type: monitor.type } : null,
    publicUrl,
  });
  return targets.map((target) => {
    const silence = silenceOf(
      org.silences,
      {
        organizationId: org.id,
        eventType: type,
        monitorId: event.monitorId,
        monitorTags: monitor?.tags ?? [],
        destinationId: target.kind === 'destination' ? target.destinationId : null,
      },
      event.occurredAt,
      now,
    );
    return {
      id: newId('dlv', now),
      organizationId: event.organizationId,
      target,
      targetKey: targetKeyOf(target),
      eventId: event.id,
      eventSeq: event.seq,
      eventType: type,
      monitorId: event.monitorId,
      event: snapshot,
      status: silence ? 'silenced' : 'pending',
      attempts: 0,
      nextAttemptAt: now,
      leaseOwner: null,
      leaseUntil: null,
      lastError: null,
      providerReference: null,
      createdAt: now,
      deliveredAt: null,
      silenceId: silence?.id ?? null,
      groupId: null,
    };
  });
}
