import { decodeCursor, encodeCursor } from '../../platform/cursor.ts';
import type { Monitor } from './monitor.types.ts';
import { sortNameOf } from './monitor.search.ts';

/**
 * Orders of GET /monitors (issue 36 item 7), each paged by key (the cursor holds the last row's keys and id):
 * `id` creation order (the default), `name`, `status` (down first, then by name), `type` (then by name),
 * `last_checked` (most recent first, never-checked last).
 */
export const MONITOR_SORTS = ['id', 'name', 'status', 'type', 'last_checked'] as const;
export type MonitorSort = (typeof MONITOR_SORTS)[number];

/**
 * Rank of a stored status in `sort=status`, one line per status (a status missing here sorts last). The shown status
 * `maintenance` is not stored: a monitor in a window sorts where its checks place it.
 */
export const STATUS_RANK: Record<string, number> = {
  down: 0,
  pending: 1,
  degraded: 2,
  up: 3,
  paused: 4,
};

/** The key values a row is ordered by under `sort`, before its id. */
export function sortKeysOf(sort: MonitorSort, m: Monitor): Array<string | number> {
  switch (sort) {
    case 'id':
      return [];
    case 'name':
      return [sortNameOf(m.name)];
    case 'type':
      return [m.type, sortNameOf(m.name)];
    case 'status':
      return [STATUS_RANK[m.status] ?? 9, sortNameOf(m.name)];
    case 'last_checked':
      return [m.lastCheckedAt ?? 0];
  }
}

/** A position in a sorted list: after the row with these keys and this id. */
export interface ListPosition {
  keys: Array<string | number>;
  id: string;
}

/** `sort=id` cursors stay the bare last id (as before sorts existed); others are `[sort, ...keys, id]`. */
export function encodeListCursor(sort: MonitorSort, m: Monitor): string {
  return sort === 'id' ? encodeCursor(m.id) : encodeCursor([sort, ...sortKeysOf(sort, m), m.id]);
}

const KEY_COUNT: Record<MonitorSort, number> = { id: 0, name: 1, type: 2, status: 2, last_checked: 1 };

export function decodeListCursor(sort: MonitorSort, cursor: string | undefined): ListPosition | undefined {
  if (sort === 'id') {
    const id = decodeCursor(cursor, (v): v is string => typeof v === 'string' && v.length > 0 && v.length < 100);
    return id === undefined ? undefined : { keys: [], id };
  }
  // A cursor of another sort (or of none) is refused rather than read as a position it does not mean.
  const parts = decodeCursor(
    cursor,
    (v): v is Array<string | number> =>
      Array.isArray(v) &&
      v.length === KEY_COUNT[sort] + 2 &&
      v[0] === sort &&
      v.every((x) => (typeof x === 'string' && x.length < 1000) || (typeof x === 'number' && Number.isFinite(x))) &&
      typeof v[v.length - 1] === 'string',
  );
  return parts === undefined ? undefined : { keys: parts.slice(1, -1), id: parts[parts.length - 1] as string };
}
