import type { Dialect } from './database.ts';

/**
 * Column vocabulary shared by every migration so one definition works on SQLite and PostgreSQL:
 * times are epoch milliseconds in `bigint`, booleans are 0/1 integers, JSON is text.
 */
export const col = {
  id: 'text',
  text: 'text',
  time: 'bigint',
  int: 'integer',
  bigint: 'bigint',
  bool: 'integer',
  json: 'text',
  real: 'double precision',
  bytes: (dialect: Dialect) => (dialect === 'postgres' ? 'bytea' : 'blob'),
} as const;

export function toJson(value: unknown): string {
  return JSON.stringify(value);
}

export function fromJson<T>(text: string | null): T {
  return (text === null ? null : JSON.parse(text)) as T;
}

export function toBool(value: number | boolean): boolean {
  return value === true || value === 1;
}
