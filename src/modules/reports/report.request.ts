import { validationFailed, type ErrorDetail } from '../../platform/errors.ts';
import { canSeeEnvironment, type Actor } from '../auth/index.ts';
import type { MonitorTimelineRepository, ReportMonitor } from './monitor-timeline.repository.ts';
import { isTimeZone, PERIOD_PRESETS, presetWindow, type PeriodPreset, type Window } from './report.period.ts';

/** What a report is asked for (query parameters of DECISIONS §8, already split into lists). */
export interface ReportInput {
  period?: string;
  from?: string;
  to?: string;
  timezone?: string;
  monitorIds?: readonly string[];
  tags?: readonly string[];
}

export interface ResolvedPeriod extends Window {
  timezone: string;
  /** The preset it came from; null for from/to. */
  preset: PeriodPreset | null;
}

const MAX_RANGE_DAYS = 400;
const DAY_MS = 86_400_000;
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/i;

/** The window of a report: a preset (default last_30_days) or from/to, in an IANA time zone (default UTC). */
export function resolvePeriod(input: ReportInput, now: number): ResolvedPeriod {
  const details: ErrorDetail[] = [];
  const timezone = input.timezone ?? 'UTC';
  if (!isTimeZone(timezone))
    details.push({ field: 'timezone', issue: 'must be an IANA time zone such as Europe/Berlin' });
  const hasRange = input.from !== undefined || input.to !== undefined;
  if (hasRange && input.period !== undefined) {
    details.push({ field: 'period', issue: 'give either period or from and to, not both' });
  }
  let preset: PeriodPreset | null = null;
  if (input.period !== undefined && !(PERIOD_PRESETS as readonly string[]).includes(input.period)) {
    details.push({ field: 'period', issue: `must be one of ${PERIOD_PRESETS.join(', ')}` });
  } else if (!hasRange) preset = (input.period as PeriodPreset | undefined) ?? 'last_30_days';
  let from = NaN;
  let to = NaN;
  if (hasRange) {
    from = instant(input.from, 'from', details);
    to = instant(input.to, 'to', details);
    if (Number.isFinite(from) && Number.isFinite(to)) {
      if (from >= to) details.push({ field: 'from', issue: 'must be before to' });
      else if (to - from > MAX_RANGE_DAYS * DAY_MS) {
        details.push({ field: 'to', issue: `a report covers at most ${MAX_RANGE_DAYS} days` });
      }
    }
  }
  if (details.length > 0) throw validationFailed(details);
  if (preset) return { ...presetWindow(preset, now, timezone), timezone, preset };
  return { from, to, timezone, preset: null };
}

function instant(value: string | undefined, field: string, details: ErrorDetail[]): number {
  if (value === undefined) {
    details.push({ field, issue: 'is required with from/to (or use period)' });
    return NaN;
  }
  const ms = RFC3339.test(value) ? Date.parse(value) : NaN;
  if (!Number.isFinite(ms)) details.push({ field, issue: 'must be an RFC 3339 time such as 2026-11-01T00:00:00Z' });
  return ms;
}

/**
 * The monitors a report covers: the listed ones (each must be a monitor of the organization in the key's
 * environments, deleted ones included; otherwise 422 naming `monitor_ids[i]`), or every such monitor that existed
 * during the window; then, when tags are given, those carrying at least one of them. Ordered by name, then id.
 */
export async function selectMonitors(
  repo: MonitorTimelineRepository,
  actor: Actor,
  input: ReportInput,
  window: Window,
): Promise<ReportMonitor[]> {
  let monitors: ReportMonitor[];
  if (input.monitorIds !== undefined && input.monitorIds.length > 0) {
    const ids = input.monitorIds;
    const found = await repo.monitorsByIds(actor.organizationId, ids);
    const visible = new Map(found.filter((m) => canSeeEnvironment(actor, m.environment)).map((m) => [m.id, m]));
    const details: ErrorDetail[] = [];
    ids.forEach((id, i) => {
      if (!visible.has(id)) {
        details.push({ field: `monitor_ids[${i}]`, issue: `monitor ${id} does not exist in this organization` });
      }
    });
    if (details.length > 0) throw validationFailed(details);
    monitors = [...new Set(ids)].map((id) => visible.get(id)!);
  } else {
    monitors = (await repo.monitorsDuring(actor.organizationId, window.from, window.to)).filter((m) =>
      canSeeEnvironment(actor, m.environment),
    );
  }
  if (input.tags !== undefined && input.tags.length > 0) {
    const wanted = new Set(input.tags);
    monitors = monitors.filter((m) => m.tags.some((t) => wanted.has(t)));
  }
  return monitors.sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
}
