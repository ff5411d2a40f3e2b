/** Every scope a key can carry (DECISIONS §2). */
export const SCOPES = [
  'monitors:read',
  'monitors:create',
  'monitors:write',
  'monitors:delete',
  'executions:read',
  'incidents:read',
  'incidents:write',
  'intelligence:read',
  'reports:read',
  'sla_targets:read',
  'sla_targets:write',
  'custom_reports:read',
  'custom_reports:write',
  'scheduled_reports:read',
  'scheduled_reports:write',
  'status_pages:read',
  'status_pages:write',
  'destinations:read',
  'destinations:write',
  'keys:write',
  'audit:read',
  'maintenance:read',
  'maintenance:write',
  'config:write',
] as const;
export type Scope = (typeof SCOPES)[number];

/** Scopes that grant others: `monitors:write` covers creation. */
const IMPLIED: Partial<Record<Scope, Scope[]>> = { 'monitors:write': ['monitors:create'] };

/** Scopes that only work when the key's owner is an owner or admin. */
export const ADMIN_ONLY_SCOPES: ReadonlySet<Scope> = new Set<Scope>([
  'destinations:write',
  'keys:write',
  'audit:read',
  // Apply changes destinations too, and every other kind at once.
  'config:write',
]);

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

export function expandScopes(scopes: Iterable<Scope>): Set<Scope> {
  const out = new Set<Scope>();
  for (const s of scopes) {
    out.add(s);
    for (const implied of IMPLIED[s] ?? []) out.add(implied);
  }
  return out;
}
