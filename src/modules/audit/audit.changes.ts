import { isSecretName, REDACTED, redactText } from '../../platform/redact.ts';
import type { AuditChange, AuditChanges } from './audit.types.ts';

/** Bookkeeping fields every update moves: listing them in each entry would only hide what changed. */
const IGNORED = new Set(['updatedAt', 'updated_at', 'lastUsedAt', 'last_used_at']);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

/** Leaves of a view by dotted path (`config.headers.Authorization`); arrays are one leaf each. */
function flatten(value: unknown, prefix: string, out: Map<string, unknown>): void {
  if (isPlainObject(value) && (Object.keys(value).length > 0 || prefix === '')) {
    for (const [k, v] of Object.entries(value)) {
      if (v === undefined || (prefix === '' && IGNORED.has(k))) continue;
      flatten(v, prefix === '' ? k : `${prefix}.${k}`, out);
    }
    return;
  }
  out.set(prefix, value);
}

/** A value as it may be stored: strings lose URL credentials and pasted keys, secret-named members are masked. */
export function maskValue(value: unknown): unknown {
  if (typeof value === 'string') return redactText(value);
  if (Array.isArray(value)) return value.map(maskValue);
  if (value instanceof Date) return value.toISOString();
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = isSecretName(k) && v !== null ? REDACTED : maskValue(v);
    return out;
  }
  return value;
}

function isSecretPath(path: string, secretFields: ReadonlySet<string>): boolean {
  return path.split('.').some((segment) => secretFields.has(segment) || isSecretName(segment));
}

function same(a: unknown, b: unknown): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

/**
 * The fields that differ between two views of one resource, each as [before, after] (null on the side where it
 * is absent: a creation has only afters, a deletion only befores). A secret field (by its name, or listed in
 * `secretFields`) shows that it changed, never its value.
 */
export function diffViews(
  before: object | null | undefined,
  after: object | null | undefined,
  secretFields: readonly string[] = [],
): AuditChanges {
  const secrets = new Set(secretFields);
  const b = new Map<string, unknown>();
  const a = new Map<string, unknown>();
  if (before) flatten(before, '', b);
  if (after) flatten(after, '', a);
  const changes: AuditChanges = {};
  for (const path of new Set([...b.keys(), ...a.keys()])) {
    const was = b.get(path) ?? null;
    const now = a.get(path) ?? null;
    if (same(was, now)) continue;
    changes[path] = isSecretPath(path, secrets)
      ? [was === null ? null : REDACTED, now === null ? null : REDACTED]
      : [maskValue(was), maskValue(now)];
  }
  return changes;
}

/** A resource as the audit log compares it: without its id, its organization and the fields in `omit`. */
function viewOf(resource: object | null, omit: readonly string[]): object | null {
  if (resource === null) return null;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(resource)) {
    if (k === 'id' || k === 'organizationId' || k === 'organization_id' || omit.includes(k)) continue;
    out[k] = v;
  }
  return out;
}

/**
 * The entry of a change to one resource of an organization: `before` null for a creation, `after` null for a
 * deletion. `omit` drops fields the change did not make (state the check engine writes, counters).
 */
export function resourceChange<T extends { id: string; organizationId: string }>(
  action: string,
  type: string,
  before: T | null,
  after: T | null,
  options: { omit?: readonly string[]; secretFields?: readonly string[] } = {},
): AuditChange {
  const resource = (after ?? before)!;
  const omit = options.omit ?? [];
  return {
    organizationId: resource.organizationId,
    action,
    target: { type, id: resource.id },
    before: viewOf(before, omit),
    after: viewOf(after, omit),
    ...(options.secretFields && { secretFields: options.secretFields }),
  };
}
