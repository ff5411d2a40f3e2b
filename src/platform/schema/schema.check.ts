import type { Static, TSchema } from '@sinclair/typebox';
import type { ValidateFunction } from 'ajv';
import type { ErrorDetail } from '../errors.ts';
import { newAjv } from './schema.ajv.ts';
import { detailsFromAjv } from './schema.details.ts';

export type SchemaResult<T> = { ok: true; value: T } | { ok: false; details: ErrorDetail[] };

/** Checks a value against one schema: the value, typed as the schema says, or every problem as `details`. */
export interface SchemaCheck<T extends TSchema> {
  readonly schema: T;
  (value: unknown): SchemaResult<Static<T>>;
}

/**
 * A check for `schema` with the routes' validator and issue texts; `prefix` names the value in the details
 * (`config` → `config.url`). Compiled on first use (a destination type's config is checked at write time and when
 * read back for a delivery, never at import).
 */
export function schemaCheck<T extends TSchema>(schema: T, prefix = ''): SchemaCheck<T> {
  let compiled: ValidateFunction | undefined;
  const check = (value: unknown): SchemaResult<Static<T>> => {
    compiled ??= newAjv({ coerce: false }).compile(schema);
    if (compiled(value)) return { ok: true, value: value as Static<T> };
    return { ok: false, details: detailsFromAjv(compiled.errors ?? [], prefix) };
  };
  return Object.assign(check, { schema });
}
