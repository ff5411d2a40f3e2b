import type { AlertEvent, DestinationRecord } from './destination.contract.ts';
import { isResolution } from './destination.message.ts';

export type PagerAction = 'trigger' | 'acknowledge' | 'resolve';

/**
 * The key that ties an alert on a pager tool (PagerDuty dedup_key, Opsgenie alias) to the later events that update
 * or close it. Per monitor, as the spec requires ("per-monitor dedup key; reminders update the same alert"):
 * down / still_down / incident_* / recovered share `tocsin-<monitor id>`, and so do degraded / degraded_recovered (one
 * alert per monitor: degraded then down updates the same alert, and recovered closes it); the other alert families have their own
 * key per monitor so that, say, a certificate warning is not resolved by a recovery.
 */
export function correlationKey(event: AlertEvent, destination: DestinationRecord): string {
  const mon = event.monitor?.id;
  switch (event.type) {
    case 'down':
    case 'still_down':
    case 'recovered':
    case 'incident_opened':
    case 'incident_acknowledged':
    case 'incident_resolved':
    case 'degraded':
    case 'degraded_recovered':
      if (mon) return `tocsin-${mon}`;
      return event.incident ? `tocsin-incident-${event.incident.id}` : `tocsin-${event.id}`;
    case 'cert_expiring':
      return mon ? `tocsin-${mon}-cert` : `tocsin-${event.id}`;
    case 'security_grade_downgraded':
    case 'security_grade_recovered':
      return mon ? `tocsin-${mon}-security-grade` : `tocsin-${event.id}`;
    case 'performance_anomaly':
    case 'performance_recovered':
      return mon ? `tocsin-${mon}-performance` : `tocsin-${event.id}`;
    case 'anomaly_alert':
    case 'anomaly_recovered':
    case 'anomaly_flapping':
      return mon ? `tocsin-${mon}-anomaly` : `tocsin-${event.id}`;
    case 'significant_change':
    case 'scheduled_report':
    case 'maintenance_started':
    case 'maintenance_ended':
      return `tocsin-${event.id}`;
    case 'test':
      return `tocsin-test-${destination.id}`;
  }
}

export function pagerAction(event: AlertEvent): PagerAction {
  if (event.type === 'incident_acknowledged') return 'acknowledge';
  return isResolution(event.type) ? 'resolve' : 'trigger';
}
