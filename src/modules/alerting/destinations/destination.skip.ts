import type { AlertEvent, SendResult } from './destination.contract.ts';

/** The reference an incident-tool send records when it deliberately sends nothing. */
export const INCIDENT_TOOL_SKIP_REFERENCE = 'skipped: incident tools are not auto-resolved';

export const skippedResult: SendResult = { outcome: 'ok', provider_reference: INCIDENT_TOOL_SKIP_REFERENCE };

/**
 * Incident tools open an incident on `down`, on `incident_opened` when no monitor is involved (a monitor's incident
 * already produced a `down`), and on `test`. Every other event (recovered, reminders, …) renders to null: the
 * tool's incident is left for humans to resolve.
 */
export function opensIncident(event: AlertEvent): boolean {
  return event.type === 'down' || event.type === 'test' || (event.type === 'incident_opened' && event.monitor === null);
}
