import type { ErrorDetail } from '../../platform/errors.ts';

/** The top-level field and, under `config`, the config key a detail names: `config.headers.x-a` → config, headers. */
function keysOf(field: string): { top: string; configKey: string | undefined } {
  const [top = '', second] = field.split(/[.[]/, 3);
  return { top, configKey: top === 'config' ? second : undefined };
}

/**
 * The body without the fields the route's schema found ill-shaped, so the rules a schema cannot say can still judge
 * the rest and one 422 names every field at fault. Null when nothing can be judged: the body is not an object, or its
 * `type` is unknown (no branch of the schema checked the other fields).
 */
export function wellShapedPart<T extends object>(body: unknown, shapeDetails: readonly ErrorDetail[]): T | null {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return null;
  const out: Record<string, unknown> = { ...body };
  const config: Record<string, unknown> | undefined =
    typeof out.config === 'object' && out.config !== null && !Array.isArray(out.config)
      ? { ...(out.config as Record<string, unknown>) }
      : undefined;
  for (const { field } of shapeDetails) {
    const { top, configKey } = keysOf(field);
    if (top === 'body' || top === 'type') return null;
    if (configKey !== undefined && config !== undefined) delete config[configKey];
    else delete out[top];
  }
  if (out.config !== undefined) out.config = config;
  return out as T;
}

/** Shape details first, then the domain's for fields the shape details do not already name. */
export function mergeDetails(shape: readonly ErrorDetail[], domain: readonly ErrorDetail[]): ErrorDetail[] {
  const named = new Set(shape.map((d) => d.field));
  return [...shape, ...domain.filter((d) => !named.has(d.field))];
}
