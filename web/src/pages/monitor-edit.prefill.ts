import type { MonitorType } from '../api/monitors';
import { scheduleFormOf, type ScheduleForm } from '../lib/heartbeat-schedule-form';
import { browserTimeZone } from '../lib/time-zones';
import type { ConfigDraft } from './monitor-edit.config';

/**
 * Initial values for `/monitors/new` handed over in the router's location state by a page that knows them (the
 * gRPC discovery: type, target, method and request template). Config values are form text, as the user would type.
 */
export interface MonitorPrefill {
  type: MonitorType;
  target: string;
  name?: string;
  config: ConfigDraft;
}

const TYPES: readonly MonitorType[] = [
  'http',
  'tls',
  'tcp',
  'dns',
  'grpc',
  'heartbeat',
  'icmp',
  'udp',
  'domain',
  'smtp',
  'websocket',
  'postgres',
  'mysql',
  'redis',
];

/** The prefill in a location's state, or null when there is none (or it is not one: state can come from history). */
export function prefillOf(state: unknown): MonitorPrefill | null {
  const candidate = (state as { prefill?: unknown } | null)?.prefill as Partial<MonitorPrefill> | undefined;
  if (!candidate || typeof candidate !== 'object') return null;
  if (!TYPES.includes(candidate.type as MonitorType) || typeof candidate.target !== 'string') return null;
  return {
    type: candidate.type as MonitorType,
    target: candidate.target,
    ...(typeof candidate.name === 'string' && { name: candidate.name }),
    config: candidate.config && typeof candidate.config === 'object' ? candidate.config : {},
  };
}

/** A heartbeat monitor's schedule form (monitor-edit.heartbeat.tsx) prefilled from the config it edits. */
export function heartbeatFormOf(draft: ConfigDraft): ScheduleForm {
  return scheduleFormOf(draft, browserTimeZone());
}
