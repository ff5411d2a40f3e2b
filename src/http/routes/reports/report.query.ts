import type { Static } from '@sinclair/typebox';
import type { ReportInput } from '../../../modules/reports/index.ts';
import type { ReportQuery } from './report.schemas.ts';

/** A comma-separated query value as its non-empty items (`monitor_ids=a,b`, `tags=x`). */
function listOf(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  return value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/** The report request a report route's query names (every report route takes the same filters). */
export function reportInputOf(q: Omit<Static<typeof ReportQuery>, 'format'>): ReportInput {
  const monitorIds = listOf(q.monitor_ids);
  const tagList = listOf(q.tags);
  return {
    ...(q.period !== undefined && { period: q.period }),
    ...(q.from !== undefined && { from: q.from }),
    ...(q.to !== undefined && { to: q.to }),
    ...(q.timezone !== undefined && { timezone: q.timezone }),
    ...(monitorIds !== undefined && { monitorIds }),
    ...(tagList !== undefined && { tags: tagList }),
  };
}
