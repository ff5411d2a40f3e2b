import type { Clock } from '../../platform/clock.ts';
import { decodeIdCursor, pageOf } from '../../platform/cursor.ts';
import { DomainError, notFound, validationFailed, type ErrorDetail } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { actorRef, canSeeEnvironment, isAdmin, type Actor } from './actor.ts';
import { displayPrefix, generateApiKey, hashApiKey } from './api-key.format.ts';
import type { ApiKey, KeyUsage, RateLimitSettings, ServiceAccount, UsageBucket } from './api-key.types.ts';
import { ApiKeysRepository } from './api-keys.repository.ts';
import type { Database } from '../../platform/db/index.ts';
import { resourceChange, type AuditTrail } from '../audit/index.ts';
import type { AuthService } from './auth.service.ts';
import { DEFAULT_RATE_LIMITS } from './auth.service.ts';
import type { ApiKeyRow, ServiceAccountRow } from './auth.tables.ts';
import { ADMIN_ONLY_SCOPES, SCOPES, expandScopes, isScope, type Scope } from './scopes.ts';
import type { ServiceAccountsRepository } from './service-accounts.repository.ts';
import type { UsageRecorder } from './usage.recorder.ts';
import type { UsageRepository } from './usage.repository.ts';

export interface CreateKeyInput {
  name: string;
  scopes: string[];
  environments?: string[];
  /** Epoch ms, or null for no expiry. */
  expiresAt?: number | null;
  rateLimits?: Partial<RateLimitSettings>;
  serviceAccountId?: string | null;
}

export interface Page<T> {
  data: T[];
  next_cursor: string | null;
}

export const DEFAULT_GRACE_SECONDS = 86_400;
const ENVIRONMENT_PATTERN = /^[a-z0-9][a-z0-9_-]{0,31}$/;
const MINUTE = 60_000;

export interface ApiKeysServiceDeps {
  keys: ApiKeysRepository;
  serviceAccounts: ServiceAccountsRepository;
  usage: UsageRepository;
  recorder: UsageRecorder;
  auth: AuthService;
  clock: Clock;
  /** Changes write their key row and audit entry in one transaction on it. */
  database: Database;
}

function keyOf(row: ApiKeyRow): ApiKey {
  return {
    id: row.id,
    organizationId: row.organization_id,
    name: row.name,
    prefix: row.prefix,
    scopes: (JSON.parse(row.scopes) as string[]).filter(isScope),
    environments: JSON.parse(row.environments) as string[],
    expiresAt: row.expires_at,
    rateLimits: {
      read_per_minute: row.read_per_minute,
      write_per_minute: row.write_per_minute,
      delete_per_minute: row.delete_per_minute,
    },
    createdBy: row.created_by,
    userId: row.user_id,
    serviceAccountId: row.service_account_id,
    lastUsedAt: row.last_used_at,
    revokedAt: row.revoked_at,
    createdAt: row.created_at,
  };
}

export function serviceAccountOf(row: ServiceAccountRow): ServiceAccount {
  return {
    id: row.id,
    organizationId: row.organization_id,
    name: row.name,
    role: row.role === 'admin' ? 'admin' : 'member',
    createdBy: row.created_by,
    createdAt: row.created_at,
  };
}

/**
 * Whether the caller may read, rotate, revoke or read the usage of a key: only one that holds no scope
 * and no environment the caller lacks, so `keys:write` never reaches a stronger key or its new value.
 * (Every caller is a key today; sessions, when they come, follow their role: owners and admins every key,
 * members their own.)
 */
export function mayManage(actor: Actor, key: Pick<ApiKeyRow, 'scopes' | 'environments'>): boolean {
  const scopes = (JSON.parse(key.scopes) as string[]).filter(isScope);
  for (const scope of expandScopes(scopes)) if (!actor.scopes.has(scope)) return false;
  return (JSON.parse(key.environments) as string[]).every((e) => canSeeEnvironment(actor, e));
}

/** The detail for a scope name that does not exist: says so and lists the ones that do. */
function unknownScopeIssue(name: string): string {
  return `${name} is not a known scope; the known scopes are ${SCOPES.join(', ')}`;
}

/** The summary of a refused creation: what is actually wrong (an unknown name, more than the creator has, or both). */
function createRefusalMessage(unknownScopes: boolean, beyondCreator: boolean): string {
  if (unknownScopes && beyondCreator) {
    return 'The key names a scope that does not exist and would grant more than its creator has.';
  }
  if (unknownScopes) return 'The key names a scope that does not exist.';
  return 'The key would grant more than its creator has.';
}

/**
 * What a new key may not grant: scopes that do not exist, scopes or environments its creator lacks. Entries of the
 * wrong type are skipped (the route schema names them), so this also runs on a body the schema refused.
 */
function grantIssues(
  actor: Actor,
  scopes: readonly unknown[],
  environments: readonly unknown[] = ['production'],
): { details: ErrorDetail[]; unknownScopes: boolean; beyondCreator: boolean } {
  const details: ErrorDetail[] = [];
  let unknownScopes = false;
  let beyondCreator = false;
  scopes.forEach((s, i) => {
    if (typeof s !== 'string' || s === '') return;
    if (!isScope(s)) {
      unknownScopes = true;
      details.push({ field: `scopes[${i}]`, issue: unknownScopeIssue(s) });
    } else if (!actor.scopes.has(s)) {
      beyondCreator = true;
      details.push({
        field: `scopes[${i}]`,
        issue: `the creating key lacks ${s}; a key cannot grant a scope its creator lacks`,
      });
    }
  });
  environments.forEach((e, i) => {
    if (typeof e !== 'string' || e === '') return;
    if (!canSeeEnvironment(actor, e)) {
      beyondCreator = true;
      details.push({
        field: `environments[${i}]`,
        issue: `the creating key lacks the environment ${e}; a key cannot grant it`,
      });
    }
  });
  return { details, unknownScopes, beyondCreator };
}

/**
 * The problems of a create body the route schema refused, beyond the schema's own: the scopes and environments it
 * would grant, so one 422 names an unknown scope together with the rest.
 */
export function keyBodyIssues(actor: Actor, body: Record<string, unknown>): ErrorDetail[] {
  const list = (v: unknown): unknown[] | undefined => (Array.isArray(v) ? v : undefined);
  return grantIssues(actor, list(body.scopes) ?? [], list(body.environments)).details;
}

/** Who owns a new key, and with which role (the role decides whether admin-only scopes work). */
interface KeyOwner {
  userId: string | null;
  serviceAccountId: string | null;
  role: string;
}

/**
 * Key management (DECISIONS §2): create, list, read, revoke, rotate, usage. A key never grants more
 * than its creator has; the value is returned once, by create and rotate.
 */
export class ApiKeysService {
  private readonly deps: ApiKeysServiceDeps;
  constructor(deps: ApiKeysServiceDeps) {
    this.deps = deps;
  }

  /** Creation through the API: limited by what the calling key has. */
  async create(actor: Actor, input: CreateKeyInput, audit?: AuditTrail): Promise<{ record: ApiKey; key: string }> {
    const { details, unknownScopes, beyondCreator } = grantIssues(actor, input.scopes, input.environments);
    if (details.length > 0) throw validationFailed(details, createRefusalMessage(unknownScopes, beyondCreator));
    if (!isAdmin(actor)) throw new DomainError('forbidden', 'Managing API keys needs an owner or admin.');
    const owner = await this.ownerFor(actor.organizationId, input.serviceAccountId ?? null, {
      userId: actor.userId,
      serviceAccountId: actor.userId === null ? actor.serviceAccountId : null,
      role: actor.role,
    });
    return this.insert(actor.organizationId, input, owner, actorRef(actor), audit);
  }

  /** Creation by an operator (`tocsin keys create`): any scope, owned by a member or a service account. */
  async createAsOperator(
    organizationId: string,
    input: CreateKeyInput,
    owner: { userId?: string | null; role?: string },
    audit?: AuditTrail,
  ): Promise<{ record: ApiKey; key: string }> {
    const resolved = await this.ownerFor(organizationId, input.serviceAccountId ?? null, {
      userId: owner.userId ?? null,
      serviceAccountId: null,
      role: owner.role ?? 'owner',
    });
    return this.insert(organizationId, input, resolved, null, audit);
  }

  private async ownerFor(
    organizationId: string,
    serviceAccountId: string | null,
    fallback: KeyOwner,
  ): Promise<KeyOwner> {
    if (serviceAccountId === null) return fallback;
    const sa = await this.deps.serviceAccounts.find(organizationId, serviceAccountId);
    if (!sa) {
      throw validationFailed([
        {
          field: 'service_account_id',
          issue: `service account ${serviceAccountId} does not exist in this organization`,
        },
      ]);
    }
    return { userId: null, serviceAccountId: sa.id, role: sa.role };
  }

  private async insert(
    organizationId: string,
    input: CreateKeyInput,
    owner: KeyOwner,
    createdBy: string | null,
    audit?: AuditTrail,
  ): Promise<{ record: ApiKey; key: string }> {
    const now = this.deps.clock.now();
    const details: ErrorDetail[] = [];
    const scopes: Scope[] = [];
    if (input.name.trim() === '') details.push({ field: 'name', issue: 'must not be empty' });
    if (input.scopes.length === 0) details.push({ field: 'scopes', issue: 'must name at least one scope' });
    input.scopes.forEach((s, i) => {
      if (!isScope(s)) details.push({ field: `scopes[${i}]`, issue: unknownScopeIssue(s) });
      else {
        if (ADMIN_ONLY_SCOPES.has(s) && owner.role !== 'owner' && owner.role !== 'admin') {
          details.push({ field: `scopes[${i}]`, issue: `${s} needs a key owned by an owner or admin` });
        }
        if (!scopes.includes(s)) scopes.push(s);
      }
    });
    const environments = [...new Set(input.environments ?? ['production'])];
    if (environments.length === 0) details.push({ field: 'environments', issue: 'must name at least one environment' });
    environments.forEach((e, i) => {
      if (!ENVIRONMENT_PATTERN.test(e))
        details.push({ field: `environments[${i}]`, issue: 'must be a lower-case label like "staging"' });
    });
    if (input.expiresAt !== undefined && input.expiresAt !== null && input.expiresAt <= now) {
      details.push({ field: 'expires_at', issue: 'must be in the future' });
    }
    if (details.length > 0) throw validationFailed(details);
    const limits: RateLimitSettings = { ...DEFAULT_RATE_LIMITS, ...input.rateLimits };
    const key = generateApiKey();
    const row: ApiKeyRow = {
      id: newId('key', now),
      organization_id: organizationId,
      name: input.name.trim(),
      prefix: displayPrefix(key),
      hash: hashApiKey(key),
      previous_hash: null,
      previous_valid_until: null,
      scopes: JSON.stringify(scopes),
      environments: JSON.stringify(environments),
      expires_at: input.expiresAt ?? null,
      read_per_minute: limits.read_per_minute,
      write_per_minute: limits.write_per_minute,
      delete_per_minute: limits.delete_per_minute,
      created_by: createdBy,
      user_id: owner.userId,
      service_account_id: owner.serviceAccountId,
      last_used_at: null,
      revoked_at: null,
      created_at: now,
      updated_at: now,
    };
    await this.deps.database.transaction(async (tx) => {
      await new ApiKeysRepository(tx).insert(row);
      await audit?.record(tx, resourceChange('api_key.create', 'api_key', null, keyOf(row), { omit: ['createdAt'] }));
    });
    return { record: keyOf(row), key };
  }

  /** The keys the caller may manage (see `mayManage`), in id order; a page may hold fewer than `limit` only at its end. */
  async list(actor: Actor, page: { limit: number; cursor?: string | undefined }): Promise<Page<ApiKey>> {
    const visible: ApiKeyRow[] = [];
    let after = decodeIdCursor(page.cursor);
    // Keys the caller may not see are skipped in SQL order, so cursors stay ids of the full sequence.
    for (;;) {
      const rows = await this.deps.keys.list(actor.organizationId, after, page.limit);
      for (const row of rows) if (mayManage(actor, row)) visible.push(row);
      if (visible.length > page.limit || rows.length <= page.limit) break;
      after = rows[rows.length - 1]!.id;
    }
    const out = pageOf(visible.slice(0, page.limit + 1), page.limit, (r) => r.id);
    return { data: out.data.map(keyOf), next_cursor: out.next_cursor };
  }

  async get(actor: Actor, id: string): Promise<ApiKey> {
    return keyOf(await this.managedRow(actor, id));
  }

  async revoke(actor: Actor, id: string, audit?: AuditTrail): Promise<ApiKey> {
    await this.managedRow(actor, id);
    return this.revokeAsOperator(actor.organizationId, id, audit);
  }

  async rotate(
    actor: Actor,
    id: string,
    graceSeconds?: number,
    audit?: AuditTrail,
  ): Promise<{ record: ApiKey; key: string }> {
    await this.managedRow(actor, id);
    return this.rotateAsOperator(actor.organizationId, id, graceSeconds, audit);
  }

  async usage(
    actor: Actor,
    id: string,
    range: { from: number; to: number; resolution?: 'minute' | 'hour' | 'day' },
  ): Promise<KeyUsage> {
    await this.managedRow(actor, id);
    return this.usageAsOperator(actor.organizationId, id, range);
  }

  /** A key the caller may not manage is as absent as another organization's (404, never 403). */
  private async managedRow(actor: Actor, id: string): Promise<ApiKeyRow> {
    const row = await this.deps.keys.findById(actor.organizationId, id);
    if (!row || !mayManage(actor, row)) throw notFound('API key');
    return row;
  }

  /** Every key of the organization: for an operator (`tocsin keys list`). */
  async listAsOperator(
    organizationId: string,
    page: { limit: number; cursor?: string | undefined },
  ): Promise<Page<ApiKey>> {
    const rows = await this.deps.keys.list(organizationId, decodeIdCursor(page.cursor), page.limit);
    const out = pageOf(rows, page.limit, (r) => r.id);
    return { data: out.data.map(keyOf), next_cursor: out.next_cursor };
  }

  private async find(organizationId: string, id: string): Promise<ApiKey> {
    const row = await this.deps.keys.findById(organizationId, id);
    if (!row) throw notFound('API key');
    return keyOf(row);
  }

  /** Revokes the key (both values, if rotated); effective here at once and in other processes within the cache time. */
  async revokeAsOperator(organizationId: string, id: string, audit?: AuditTrail): Promise<ApiKey> {
    const before = await this.find(organizationId, id);
    const now = this.deps.clock.now();
    await this.deps.database.transaction(async (tx) => {
      await new ApiKeysRepository(tx).revoke(organizationId, id, now);
      if (before.revokedAt === null)
        await audit?.record(tx, resourceChange('api_key.revoke', 'api_key', before, { ...before, revokedAt: now }));
    });
    this.deps.auth.forgetCached();
    return this.find(organizationId, id);
  }

  /** New value, same id and settings; the old value stays valid for `graceSeconds` (0: not at all). */
  async rotateAsOperator(
    organizationId: string,
    id: string,
    graceSeconds = DEFAULT_GRACE_SECONDS,
    audit?: AuditTrail,
  ): Promise<{ record: ApiKey; key: string }> {
    const row = await this.deps.keys.findById(organizationId, id);
    if (!row) throw notFound('API key');
    if (row.revoked_at !== null) throw new DomainError('conflict', 'This key is revoked; create a new one instead.');
    const now = this.deps.clock.now();
    const key = generateApiKey();
    const ok = await this.deps.database.transaction(async (tx) => {
      const rotated = await new ApiKeysRepository(tx).rotate(organizationId, id, {
        hash: hashApiKey(key),
        prefix: displayPrefix(key),
        previousHash: graceSeconds > 0 ? row.hash : null,
        previousValidUntil: graceSeconds > 0 ? now + graceSeconds * 1000 : null,
        at: now,
      });
      if (rotated) {
        await audit?.record(tx, {
          organizationId,
          action: 'api_key.rotate',
          target: { type: 'api_key', id },
          changes: {
            value: ['[redacted]', '[redacted]'],
            prefix: [row.prefix, displayPrefix(key)],
            grace_seconds: [null, graceSeconds],
          },
        });
      }
      return rotated;
    });
    if (!ok) throw new DomainError('conflict', 'This key is revoked; create a new one instead.');
    this.deps.auth.forgetCached();
    return { record: await this.find(organizationId, id), key };
  }

  private async usageAsOperator(
    organizationId: string,
    id: string,
    range: { from: number; to: number; resolution?: 'minute' | 'hour' | 'day' },
  ): Promise<KeyUsage> {
    if (range.to <= range.from) throw validationFailed([{ field: 'to', issue: 'must be after from' }]);
    if (range.to - range.from > 93 * 24 * 60 * MINUTE)
      throw validationFailed([{ field: 'from', issue: 'the period may span at most 93 days' }]);
    // What this process counted but has not written yet is included.
    await this.deps.recorder.flush();
    const rows = await this.deps.usage.buckets(organizationId, id, range.from - (range.from % MINUTE), range.to);
    const resolution =
      range.resolution ??
      (range.to - range.from <= 24 * 60 * MINUTE
        ? 'minute'
        : range.to - range.from <= 31 * 24 * 60 * MINUTE
          ? 'hour'
          : 'day');
    const width = resolution === 'minute' ? MINUTE : resolution === 'hour' ? 60 * MINUTE : 24 * 60 * MINUTE;
    const buckets = new Map<number, UsageBucket>();
    const totals = {
      requests: 0,
      read: 0,
      write: 0,
      delete: 0,
      status_2xx: 0,
      status_3xx: 0,
      status_4xx: 0,
      status_5xx: 0,
    };
    for (const r of rows) {
      const start = r.minute - (r.minute % width);
      let b = buckets.get(start);
      if (!b) {
        b = { start, read: 0, write: 0, delete: 0, status_2xx: 0, status_3xx: 0, status_4xx: 0, status_5xx: 0 };
        buckets.set(start, b);
      }
      b.read += r.read_count;
      b.write += r.write_count;
      b.delete += r.delete_count;
      b.status_2xx += r.status_2xx;
      b.status_3xx += r.status_3xx;
      b.status_4xx += r.status_4xx;
      b.status_5xx += r.status_5xx;
      totals.read += r.read_count;
      totals.write += r.write_count;
      totals.delete += r.delete_count;
      totals.status_2xx += r.status_2xx;
      totals.status_3xx += r.status_3xx;
      totals.status_4xx += r.status_4xx;
      totals.status_5xx += r.status_5xx;
    }
    totals.requests = totals.read + totals.write + totals.delete;
    const key = await this.find(organizationId, id);
    return {
      keyId: id,
      from: range.from,
      to: range.to,
      resolution,
      lastUsedAt: key.lastUsedAt,
      buckets: [...buckets.values()].sort((a, b) => a.start - b.start),
      totals,
    };
  }
}
