import { DomainError } from './errors.ts';

/** Opaque pagination cursor: base64url JSON of the last row's sort key. */
export function encodeCursor(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

export function decodeCursor<T>(cursor: string | undefined, isValid: (v: unknown) => v is T): T | undefined {
  if (cursor === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (isValid(value)) return value;
  } catch {
    // reported below
  }
  throw new DomainError('validation_failed', 'The cursor is not valid.', [
    { field: 'cursor', issue: 'must be a next_cursor returned by this list' },
  ]);
}

/** Cursor holding the last id of a page ordered by id (ids are time-sortable). */
export function decodeIdCursor(cursor: string | undefined): string | undefined {
  return decodeCursor(cursor, (v): v is string => typeof v === 'string' && v.length > 0 && v.length < 100);
}

/** Splits `limit + 1` fetched rows into a page and the cursor of the next one. */
export function pageOf<T>(
  rows: T[],
  limit: number,
  keyOf: (row: T) => unknown,
): { data: T[]; next_cursor: string | null } {
  if (rows.length <= limit) return { data: rows, next_cursor: null };
  const data = rows.slice(0, limit);
  return { data, next_cursor: encodeCursor(keyOf(data[data.length - 1]!)) };
}
