import type { PlanName } from '../../config/index.ts';
import type { Clock } from '../../platform/clock.ts';
import { toJson } from '../../platform/db/index.ts';
import { newId } from '../../platform/ids.ts';
import type { Role } from '../orgs/index.ts';
import type { Actor } from './actor.ts';
import { displayPrefix, generateApiKey, hashApiKey, isWellFormedApiKey } from './api-key.format.ts';
import type { ApiKeysRepository } from './api-keys.repository.ts';
import { expandScopes, isScope, type Scope } from './scopes.ts';

export const DEFAULT_RATE_LIMITS = { read_per_minute: 600, write_per_minute: 120, delete_per_minute: 60 } as const;

export interface AuthServiceDeps {
  keys: ApiKeysRepository;
  clock: Clock;
  /**
   * How long a resolved key is reused without asking the database. Kept short so a revoke or an
   * expiry takes effect in every process within this time.
   */
  cacheMs?: number;
}

export interface IssueKeyInput {
  organizationId: string;
  name: string;
  scopes: Scope[];
  environments?: string[];
  expiresAt?: number | null;
  rateLimits?: { read_per_minute: number; write_per_minute: number; delete_per_minute: number };
  userId?: string | null;
  serviceAccountId?: string | null;
  createdBy?: string | null;
}

export class AuthService {
  private readonly deps: AuthServiceDeps;
  private readonly cache = new Map<string, { actor: Actor | null; until: number }>();
  constructor(deps: AuthServiceDeps) {
    this.deps = deps;
  }

  /** Creates a key and returns its id and value; the value is never retrievable again. */
  async issueKey(input: IssueKeyInput): Promise<{ id: string; key: string }> {
    const now = this.deps.clock.now();
    const key = generateApiKey();
    const id = newId('key', now);
    const limits = input.rateLimits ?? DEFAULT_RATE_LIMITS;
    await this.deps.keys.insert({
      id,
      organization_id: input.organizationId,
      name: input.name,
      prefix: displayPrefix(key),
      hash: hashApiKey(key),
      previous_hash: null,
      previous_valid_until: null,
      scopes: toJson(input.scopes),
      environments: toJson(input.environments ?? ['production']),
      expires_at: input.expiresAt ?? null,
      read_per_minute: limits.read_per_minute,
      write_per_minute: limits.write_per_minute,
      delete_per_minute: limits.delete_per_minute,
      created_by: input.createdBy ?? null,
      user_id: input.userId ?? null,
      service_account_id: input.serviceAccountId ?? null,
      last_used_at: null,
      revoked_at: null,
      created_at: now,
      updated_at: now,
    });
    return { id, key };
  }

  /** Resolves a bearer value to an actor, or null when it is unknown, malformed, expired or revoked. */
  async authenticate(bearer: string): Promise<Actor | null> {
    const cached = this.cachedActor(bearer);
    if (cached !== undefined) return cached;
    const now = this.deps.clock.now();
    if (!isWellFormedApiKey(bearer)) return null;
    const actor = await this.resolve(hashApiKey(bearer), now);
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(bearer, { actor, until: now + (this.deps.cacheMs ?? 1000) });
    return actor;
  }

  /**
   * The answer of `authenticate` when it is still cached (at most `cacheMs` old), without I/O or a promise:
   * the actor, or null for a refused key; undefined when `authenticate` must be asked.
   */
  cachedActor(bearer: string): Actor | null | undefined {
    // Keyed by the presented value itself: a hit costs one map lookup, no hashing (two SHA-256 per miss).
    const cached = this.cache.get(bearer);
    if (cached === undefined) return undefined;
    const now = this.deps.clock.now();
    return cached.until > now ? this.stillValid(cached.actor, now) : undefined;
  }

  /** Forgets cached resolutions, so a change made in this process is seen at once. */
  forgetCached(): void {
    this.cache.clear();
  }

  private stillValid(actor: Actor | null, now: number): Actor | null {
    const expiresAt = actor ? this.expiryOf.get(actor) : undefined;
    return actor && (expiresAt === undefined || expiresAt > now) ? actor : null;
  }

  private readonly expiryOf = new WeakMap<Actor, number>();

  private async resolve(hash: string, now: number): Promise<Actor | null> {
    const found = await this.deps.keys.findByHash(hash);
    if (!found) return null;
    const { key } = found;
    if (key.revoked_at !== null) return null;
    if (key.expires_at !== null && key.expires_at <= now) return null;
    if (found.viaPrevious && (key.previous_valid_until === null || key.previous_valid_until <= now)) return null;
    // The owner's current role: the person's membership, or the service account's role.
    const role = found.role as Role | null;
    if (role === null) return null; // the owning user left the organization, or the service account was deleted
    const scopes = (JSON.parse(key.scopes) as string[]).filter(isScope);
    const actor: Actor = {
      organizationId: key.organization_id,
      plan: found.plan as PlanName,
      keyId: key.id,
      userId: key.user_id,
      serviceAccountId: key.service_account_id,
      role,
      scopes: expandScopes(scopes),
      environments: JSON.parse(key.environments) as string[],
      rateLimits: { read: key.read_per_minute, write: key.write_per_minute, delete: key.delete_per_minute },
      name: key.name,
    };
    const limits = [key.expires_at, found.viaPrevious ? key.previous_valid_until : null].filter(
      (v): v is number => v !== null,
    );
    if (limits.length > 0) this.expiryOf.set(actor, Math.min(...limits));
    return actor;
  }
}
