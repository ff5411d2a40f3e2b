import type { Database } from '../../platform/db/index.ts';
import type { AlertingTables } from './alerting.tables.ts';

/** The outbox columns read here; the table belongs to the events module (its events carry the incident id). */
interface DomainEventRow {
  id: string;
  organization_id: string;
  incident_id: string | null;
  occurred_at: number;
}

export interface IncidentDeliveryRow {
  id: string;
  destination_id: string | null;
  destination_name: string | null;
  destination_type: string | null;
  member_user_id: string | null;
  member_email: string | null;
  event_id: string;
  event_seq: number;
  event_type: string;
  event_occurred_at: number;
  status: string;
  attempts: number;
  next_attempt_at: number;
  last_error: string | null;
  created_at: number;
  updated_at: number;
  delivered_at: number | null;
  silence_id: string | null;
  group_id: string | null;
}

/** Keyset position: the last row's outbox order and id. */
export interface IncidentDeliveryKey {
  seq: number;
  id: string;
}

/** The deliveries of the events an incident caused (down, reminders, acknowledged, recovered, resolved …). */
export class IncidentDeliveriesRepository {
  private readonly database: Database;
  constructor(database: Database) {
    this.database = database;
  }

  /** Oldest event first, then by delivery id; at most `limit` rows after `after`. */
  async list(
    organizationId: string,
    incidentId: string,
    limit: number,
    after?: IncidentDeliveryKey,
  ): Promise<IncidentDeliveryRow[]> {
    const db = this.database.tables<AlertingTables & { domain_event: DomainEventRow }>();
    let q = db
      .selectFrom('domain_event as e')
      .innerJoin('delivery as d', 'd.event_id', 'e.id')
      .leftJoin('destination as t', 't.id', 'd.destination_id')
      .select([
        'd.id',
        'd.destination_id',
        't.name as destination_name',
        't.type as destination_type',
        'd.member_user_id',
        'd.member_email',
        'd.event_id',
        'd.event_seq',
        'd.event_type',
        'e.occurred_at as event_occurred_at',
        'd.status',
        'd.attempts',
        'd.next_attempt_at',
        'd.last_error',
        'd.created_at',
        'd.updated_at',
        'd.delivered_at',
        'd.silence_id',
        'd.group_id',
      ])
      .where('e.incident_id', '=', incidentId)
      .where('e.organization_id', '=', organizationId)
      .where('d.organization_id', '=', organizationId);
    if (after) {
      q = q.where((eb) =>
        eb.or([
          eb('d.event_seq', '>', after.seq),
          eb.and([eb('d.event_seq', '=', after.seq), eb('d.id', '>', after.id)]),
        ]),
      );
    }
    const rows = await q.orderBy('d.event_seq').orderBy('d.id').limit(limit).execute();
    return rows.map((r) => ({
      ...r,
      event_seq: Number(r.event_seq),
      event_occurred_at: Number(r.event_occurred_at),
      next_attempt_at: Number(r.next_attempt_at),
      created_at: Number(r.created_at),
      updated_at: Number(r.updated_at),
      delivered_at: r.delivered_at === null ? null : Number(r.delivered_at),
    }));
  }
}
