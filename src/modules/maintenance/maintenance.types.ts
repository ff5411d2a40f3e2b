/** A maintenance window (DECISIONS §16): planned quiet for some monitors, once or on a recurring local schedule. */
export type MaintenanceSchedule =
  | { type: 'once'; startsAt: number; endsAt: number }
  | {
      type: 'recurring';
      /** RFC 5545 RRULE, the subset maintenance.rrule.ts parses. */
      rrule: string;
      /** `HH:MM`, local to the window's zone. */
      startTime: string;
      durationMinutes: number;
      /**
       * `YYYY-MM-DD` in the window's zone: the first day occurrences may fall on (RFC 5545's DTSTART date; INTERVAL
       * and COUNT count from it). Defaults to the day the window was created.
       */
      startDate: string;
    };

export interface MaintenanceWindow {
  id: string;
  organizationId: string;
  name: string;
  description: string | null;
  monitorIds: string[];
  tags: string[];
  schedule: MaintenanceSchedule;
  timezone: string;
  suppressAlerts: boolean;
  excludeFromSla: boolean;
  statusPageIds: string[];
  announceMinutesBefore: number;
  /**
   * Occurrences ended early by `POST /{id}/end`: the occurrence's start → the instant it was ended. Only the most
   * recent are kept (MAX_EARLY_ENDS); reports read them for the time a window really lasted.
   */
  earlyEnds: Array<{ start: number; endedAt: number }>;
  createdAt: number;
  updatedAt: number;
}

/** One occurrence: [start, end) in epoch ms (end is the early end when the occurrence was ended early). */
export interface Occurrence {
  start: number;
  end: number;
}

export const MAX_EARLY_ENDS = 200;
