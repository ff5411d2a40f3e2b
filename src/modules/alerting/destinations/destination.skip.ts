import type { AlertEvent, SendResult } from './destination.contract.ts';

/** The reference an incident-tool send records when it deliberately sends nothing. */
export const INCIDENT_TOOL_SKIP_REFERENCE = 'skipped: incident tools are not auto-resolved';

export const skippedResult: SendResult = { outcome: 'ok', provider_reference: INCIDENT_TOOL_SKIP_REFERENCE };

/**
 * Incident tools create incidents and never resolve them (interface spec: "Creates an incident on down"). They open
 * one on `down`, on `test`, and on `incident_opened` when that incident produced no `down`: no monitor involved, or a
 * source other than `monitor` (an `intelligence` incident opened by an anomaly or a grade drop with
 * `config.intelligence_incidents`, an `api` or `manual` incident naming a monitor). A monitor's own incident already
 * produced its `down`, so its `incident_opened` is skipped. Every other event (recovered, reminders, intelligence
 * events themselves, …) renders to null: the tool's incident is left for humans to resolve.
 */
export function opensIncident(event: AlertEvent): boolean {
  if (event.type === 'down' || event.type === 'test') return true;
  if (event.type !== 'incident_opened') return false;
  const source = event.data.source;
  return event.monitor === null || (typeof source === 'string' && source !== 'monitor');
}
