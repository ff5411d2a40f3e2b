import type { Database } from '../../platform/db/index.ts';
import type { DestinationType, EventType } from './destinations/index.ts';
import type { DeliveryRecord, Destination } from './alerting.types.ts';

/** A create body whose shape the route schema has already checked (domain rules are the service's). */
export interface DestinationCreateInput {
  type: DestinationType;
  name?: string;
  events?: EventType[];
  config?: Record<string, unknown>;
  payload_format?: 'standard' | 'legacy' | null;
  monitor_ids?: string[];
  group_window_seconds?: number;
}

/** A PATCH body: `config` is merged key by key (null removes a key; an omitted secret keeps its value). */
export interface DestinationPatchInput {
  name?: string;
  events?: EventType[];
  config?: Record<string, unknown>;
  payload_format?: 'standard' | 'legacy' | null;
  monitor_ids?: string[];
  group_window_seconds?: number;
}

/** A destination as the API shows it: secrets masked, the attached monitors the caller may see. */
export interface DestinationView {
  destination: Destination;
  /** Config with secret fields masked. */
  maskedConfig: Record<string, unknown>;
  monitorIds: string[];
  /** Only in the create response of a generic webhook. */
  signingSecret?: string;
}

export interface TestResult {
  deliveryId: string | null;
  status: DeliveryRecord['status'] | 'queued';
  attempts: number;
  error: string | null;
  /** What happened instead of a delivery (status `logged`: email without an SMTP server); null otherwise. */
  note: string | null;
  destination: DestinationView;
}

/** What alerting needs to know about monitors (from the monitors module): whose and which environment. */
export interface MonitorFacts {
  id: string;
  organizationId: string;
  environment: string;
}

/** Reads through `db` when given (a transaction handle: on SQLite a read beside an open transaction would wait for it). */
export type MonitorFactsOf = (monitorIds: readonly string[], db?: Database) => Promise<MonitorFacts[]>;

/**
 * Port: what else sends to destinations besides monitor alerts (scheduled reports, wired in main.ts), as the
 * environments each sender reports on. A destination serving one outside a key's environments is hidden from it.
 */
export interface DestinationUsers {
  /** Per destination among `ids` that something sends to, the environments of each such sender. */
  environmentsOf(db: Database, organizationId: string, ids: readonly string[]): Promise<Map<string, string[][]>>;
}
