import type { ErrorDetail } from '../../platform/errors.ts';
import type { PublicMonitorStatus, StatusPage, StatusPageGroup } from './status-page.types.ts';

/** Monitors a page shows at most (grouped and ungrouped together). */
export const MONITORS_MAX = 100;
export const GROUPS_MAX = 50;

/** Every monitor on a page: group by group in order, then the ungrouped ones. */
export function pageMonitorIds(page: Pick<StatusPage, 'groups' | 'monitorIds'>): string[] {
  return [...page.groups.flatMap((g) => g.monitorIds), ...page.monitorIds];
}

/** Worst first: what a group's header says is the first of these that one of its monitors is in. */
const SEVERITY: readonly PublicMonitorStatus[] = [
  'degraded',
  'degraded_performance',
  'maintenance',
  'pending',
  'paused',
  'operational',
];

export function worstStatus(statuses: readonly PublicMonitorStatus[]): PublicMonitorStatus {
  for (const status of SEVERITY) if (statuses.includes(status)) return status;
  return 'operational';
}

/** One list of monitor ids of the layout, with the body field it came from (null: kept from the stored page). */
export interface LayoutList {
  field: string | null;
  /** The group's name, for the message of a duplicate; null for the ungrouped list. */
  group: string | null;
  ids: readonly string[];
}

/**
 * Each monitor at most once across the groups and the ungrouped list, and at most MONITORS_MAX in all. Kept lists
 * are read first, so a duplicate is reported on the field of the body that brought it.
 */
export function layoutProblems(lists: readonly LayoutList[]): ErrorDetail[] {
  const ordered = [...lists.filter((l) => l.field === null), ...lists.filter((l) => l.field !== null)];
  const seenIn = new Map<string, string | null>();
  const details: ErrorDetail[] = [];
  let total = 0;
  for (const list of ordered) {
    list.ids.forEach((id, i) => {
      total++;
      if (seenIn.has(id) && list.field !== null) {
        const where = seenIn.get(id);
        details.push({
          field: `${list.field}[${i}]`,
          issue:
            where === undefined || where === list.group
              ? `monitor ${id} is listed twice`
              : `monitor ${id} is already on the page (${where === null ? 'ungrouped' : `in group "${where}"`}); a monitor can be in one place only`,
        });
      }
      if (!seenIn.has(id)) seenIn.set(id, list.group);
    });
  }
  if (total > MONITORS_MAX) {
    const field =
      lists.find((l) => l.field !== null)?.field?.replace(/^groups\[\d+\]\.monitor_ids$/, 'groups') ?? 'monitor_ids';
    details.push({ field, issue: `a page shows at most ${MONITORS_MAX} monitors (grouped and ungrouped together)` });
  }
  return details;
}

/** The groups as stored from a body's groups. */
export function groupsOf(
  input: ReadonlyArray<{ name: string; monitor_ids: string[]; collapsed?: boolean }>,
): StatusPageGroup[] {
  return input.map((g) => ({ name: g.name.trim(), monitorIds: [...g.monitor_ids], collapsed: g.collapsed ?? false }));
}

/**
 * A host name a page may be served at: at least two labels of letters, digits and hyphens (no hyphen at either end
 * of a label), the last starting with a letter (so no IP address), at most 253 characters; not the app's own host.
 */
export function customDomainIssue(domain: string, reservedHosts: readonly string[]): string | null {
  const labels = domain.split('.');
  const wellFormed =
    domain.length <= 253 &&
    labels.length >= 2 &&
    labels.every((l) => /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/.test(l)) &&
    /^[a-z]/.test(labels[labels.length - 1]!);
  if (!wellFormed) return 'must be a host name such as status.example.com (no scheme, port or path)';
  if (reservedHosts.includes(domain)) return `${domain} is this app's own host name`;
  return null;
}

/** A host name as stored and matched: lower case, without a trailing dot. */
export function normaliseDomain(domain: string): string {
  return domain.trim().toLowerCase().replace(/\.$/, '');
}

/** An IANA zone name (offsets such as +02:00 do not follow DST and are refused). */
export function isTimeZone(zone: string): boolean {
  if (!/^[A-Za-z]/.test(zone)) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}
