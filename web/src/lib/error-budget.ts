/**
 * The error budget an SLA target allows, for the editor's live preview. The report's own figure is
 * `(1 − target/100) × monitored seconds of the whole calendar period` in the report's time zone (DECISIONS §11,
 * docs/reports.md), so a period's budget depends on its real length: a month has 28 to 31 days, a day 23 to 25 hours
 * across a DST change. The preview shows the budget of the average period and the shortest and longest one.
 */
export type SlaPeriod = 'daily' | 'weekly' | 'monthly' | 'quarterly';

const DAY = 86_400;
const HOUR = 3_600;
/** The Gregorian year's mean length (400-year cycle: 146,097 days), so a mean month is 30.436875 days. */
const MEAN_YEAR_DAYS = 365.2425;

interface PeriodLengths {
  /** Seconds of the average period. */
  mean: number;
  /** Seconds of the shortest and the longest calendar period (a DST change takes or gives one hour). */
  shortest: number;
  longest: number;
  /** How the average is made, for the preview's wording. */
  meanLabel: string;
}

export const PERIOD_LENGTHS: Record<SlaPeriod, PeriodLengths> = {
  daily: { mean: DAY, shortest: DAY - HOUR, longest: DAY + HOUR, meanLabel: '24-hour day' },
  weekly: { mean: 7 * DAY, shortest: 7 * DAY - HOUR, longest: 7 * DAY + HOUR, meanLabel: '7-day week' },
  monthly: {
    mean: (MEAN_YEAR_DAYS / 12) * DAY,
    shortest: 28 * DAY - HOUR,
    longest: 31 * DAY + HOUR,
    meanLabel: '30.44-day month',
  },
  // Q1 has 90 days (91 in a leap year), Q2 91, Q3 and Q4 92.
  quarterly: {
    mean: (MEAN_YEAR_DAYS / 4) * DAY,
    shortest: 90 * DAY - HOUR,
    longest: 92 * DAY + HOUR,
    meanLabel: '91.31-day quarter',
  },
};

export interface ErrorBudget {
  /** Downtime allowed in the average period, seconds. */
  mean: number;
  shortest: number;
  longest: number;
  meanLabel: string;
}

/**
 * The budget for `targetPercent` over `period`, or null when the target is not one the API accepts (a number
 * strictly between 0 and 100 with at most 3 decimals): the preview then shows nothing rather than a wrong figure.
 */
export function errorBudget(targetPercent: number, period: SlaPeriod): ErrorBudget | null {
  if (!Number.isFinite(targetPercent) || targetPercent <= 0 || targetPercent >= 100) return null;
  if (Math.abs(Math.round(targetPercent * 1000) - targetPercent * 1000) > 1e-6) return null;
  // In thousandths of a percent, so that 99.9 gives exactly 0.001 of the period (no 0.0009999… from floats).
  const allowed = 100_000 - Math.round(targetPercent * 1000);
  const lengths = PERIOD_LENGTHS[period];
  return {
    mean: (allowed * lengths.mean) / 100_000,
    shortest: (allowed * lengths.shortest) / 100_000,
    longest: (allowed * lengths.longest) / 100_000,
    meanLabel: lengths.meanLabel,
  };
}
