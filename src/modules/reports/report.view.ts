import { toIso } from '../../platform/clock.ts';
import type { ResolvedPeriod } from './report.request.ts';
import type { ReportPeriod } from './report.types.ts';

/** A resolved window as report documents show it (RFC 3339, zone, preset). */
export function periodView(p: ResolvedPeriod): ReportPeriod {
  return { from: toIso(p.from), to: toIso(p.to), timezone: p.timezone, preset: p.preset };
}
