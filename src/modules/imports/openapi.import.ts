import { validationFailed, type ErrorDetail } from '../../platform/errors.ts';

/** Settings an import applies to every monitor it creates (each overrides what the description gave). */
export interface ImportDefaults {
  interval_seconds?: number;
  region_codes?: string[];
  tags?: string[];
  environment?: string;
  destination_ids?: string[];
  paused?: boolean;
}

/** An operation as a parse lists it (only these two fields matter to an import). */
export interface ImportableOperation {
  operation_id: string;
  monitor: Record<string, unknown>;
}

export interface PlannedMonitor {
  operationId: string;
  /** The monitor body, defaults applied. */
  body: Record<string, unknown>;
  /** Where its problems are reported: `operations[i].monitor`, i its place in the parse's list. */
  field: string;
}

/**
 * The monitors to create: the chosen operations, in the order chosen, with the defaults applied. An id that is not
 * an operation of the list, or is chosen twice, is a 422 naming its place in `operation_ids`.
 */
export function planImport(
  operations: readonly ImportableOperation[],
  operationIds: readonly string[],
  defaults: ImportDefaults = {},
): PlannedMonitor[] {
  const index = new Map<string, number>();
  operations.forEach((op, i) => {
    if (!index.has(op.operation_id)) index.set(op.operation_id, i);
  });
  const details: ErrorDetail[] = [];
  const chosen = new Set<string>();
  operationIds.forEach((id, i) => {
    if (!index.has(id))
      details.push({ field: `operation_ids[${i}]`, issue: `"${id}" is not an operation of the description` });
    else if (chosen.has(id)) details.push({ field: `operation_ids[${i}]`, issue: `"${id}" is chosen twice` });
    chosen.add(id);
  });
  if (details.length > 0) throw validationFailed(details);
  return operationIds.map((id) => {
    const i = index.get(id)!;
    return { operationId: id, body: withDefaults(operations[i]!.monitor, defaults), field: `operations[${i}].monitor` };
  });
}

function withDefaults(monitor: Record<string, unknown>, defaults: ImportDefaults): Record<string, unknown> {
  const body = structuredClone(monitor);
  if (defaults.interval_seconds !== undefined) body.interval_seconds = defaults.interval_seconds;
  if (defaults.region_codes !== undefined) body.region_codes = [...defaults.region_codes];
  if (defaults.environment !== undefined) body.environment = defaults.environment;
  if (defaults.paused !== undefined) body.paused = defaults.paused;
  if (defaults.tags !== undefined) {
    const own = Array.isArray(body.tags) ? (body.tags as unknown[]) : [];
    body.tags = [...new Set([...own, ...defaults.tags])];
  }
  if (defaults.destination_ids !== undefined) {
    const config =
      typeof body.config === 'object' && body.config !== null ? (body.config as Record<string, unknown>) : {};
    body.config = { ...config, alert_destination_ids: [...defaults.destination_ids] };
  }
  return body;
}
