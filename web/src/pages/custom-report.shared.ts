import { dateTime } from '../lib/format';
import { useQuery } from '@tanstack/react-query';
import { unwrap } from '../api/client';
import { useApi } from '../api/context';
import type { components } from '../api/schema';
import { can, type SessionInfo } from '../api/session';

export type CustomReport = components['schemas']['CustomReport'];
export type Visibility = CustomReport['visibility'];
export type Member = components['schemas']['Member'];

export const VISIBILITY_LABELS: Record<Visibility, string> = {
  private: 'Private',
  organization: 'Organization',
  shared: 'Shared',
};

/** The API's period presets (DECISIONS §8), with the words the page uses. */
export const PERIOD_PRESETS = [
  ['last_24_hours', 'Last 24 hours'],
  ['last_7_days', 'Last 7 days'],
  ['last_30_days', 'Last 30 days'],
  ['last_90_days', 'Last 90 days'],
  ['month_to_date', 'Month to date'],
  ['previous_month', 'Previous month'],
  ['quarter_to_date', 'Quarter to date'],
  ['previous_quarter', 'Previous quarter'],
] as const;

export function periodLabel(period: CustomReport['period']): string {
  if (typeof period === 'string') return PERIOD_PRESETS.find(([p]) => p === period)?.[1] ?? period;
  return `${dateTime(period.from)} – ${dateTime(period.to)}`;
}

/**
 * Who may change a report (docs/reports.md): its owner, or an owner or admin of the organization, never a viewer.
 * The API refuses everyone else with 403 anyway; the page only hides what would be refused.
 */
export function canEditReport(report: Pick<CustomReport, 'owner_id'>, session: SessionInfo): boolean {
  const role = can(session.role);
  return role.write && (report.owner_id === session.user.id || role.admin);
}

/** The active members of the organization (the sharing picker, owner names). */
export function useMembers() {
  const api = useApi();
  return useQuery({
    queryKey: ['members'],
    queryFn: async () => unwrap(await api.client.GET('/api/v1/auth/organization/members', {})),
    select: (list) => list.data.filter((m): m is Member => m.status === 'active'),
  });
}

/** user id → the member's name (or address). */
export function useMemberNames(): Map<string, string> {
  const members = useMembers();
  return new Map((members.data ?? []).map((m) => [m.user_id, m.name ?? m.email]));
}
