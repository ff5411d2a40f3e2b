import { resourceChange, type AuditTrail } from '../audit/index.ts';
import type { Clock } from '../../platform/clock.ts';
import { decodeIdCursor, pageOf } from '../../platform/cursor.ts';
import type { Database } from '../../platform/db/index.ts';
import { DomainError, notFound, validationFailed } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { actorRef, type Actor } from './actor.ts';
import type { ServiceAccount } from './api-key.types.ts';
import { mayManage, serviceAccountOf, type Page } from './api-keys.service.ts';
import { ApiKeysRepository } from './api-keys.repository.ts';
import type { AuthService } from './auth.service.ts';
import { ServiceAccountsRepository } from './service-accounts.repository.ts';

export interface ServiceAccountsServiceDeps {
  database: Database;
  repository: ServiceAccountsRepository;
  keys: ApiKeysRepository;
  auth: AuthService;
  clock: Clock;
}

/** Service accounts own keys that must outlive any one person's membership. */
export class ServiceAccountsService {
  private readonly deps: ServiceAccountsServiceDeps;
  constructor(deps: ServiceAccountsServiceDeps) {
    this.deps = deps;
  }

  async create(
    organizationId: string,
    input: { name: string; role: 'admin' | 'member' },
    actor: Actor | null,
    audit?: AuditTrail,
  ): Promise<ServiceAccount> {
    if (input.name.trim() === '') throw validationFailed([{ field: 'name', issue: 'must not be empty' }]);
    const now = this.deps.clock.now();
    const row = {
      id: newId('sac', now),
      organization_id: organizationId,
      name: input.name.trim(),
      role: input.role,
      created_by: actor ? actorRef(actor) : null,
      created_at: now,
      deleted_at: null,
    };
    await this.deps.database.transaction(async (tx) => {
      await new ServiceAccountsRepository(tx).insert(row);
      const change = resourceChange('service_account.create', 'service_account', null, serviceAccountOf(row));
      await audit?.record(tx, change);
    });
    return serviceAccountOf(row);
  }

  async list(
    organizationId: string,
    page: { limit: number; cursor?: string | undefined },
  ): Promise<Page<ServiceAccount>> {
    const rows = await this.deps.repository.list(organizationId, decodeIdCursor(page.cursor), page.limit);
    const out = pageOf(rows, page.limit, (r) => r.id);
    return { data: out.data.map(serviceAccountOf), next_cursor: out.next_cursor };
  }

  async get(organizationId: string, id: string): Promise<ServiceAccount> {
    const row = await this.deps.repository.find(organizationId, id);
    if (!row) throw notFound('Service account');
    return serviceAccountOf(row);
  }

  /**
   * Deletes the account and revokes every key it owns, in one transaction. A caller (a key) may do so only when
   * it could revoke each of those keys itself (`mayManage`); otherwise nothing changes (403 forbidden).
   * `actor` null: the operator.
   */
  async delete(actor: Actor | null, organizationId: string, id: string, audit?: AuditTrail): Promise<void> {
    const now = this.deps.clock.now();
    await this.deps.database.transaction(async (tx) => {
      const keys = new ApiKeysRepository(tx);
      if (!(await new ServiceAccountsRepository(tx).markDeleted(organizationId, id, now))) {
        throw notFound('Service account');
      }
      if (actor && (await keys.activeOfServiceAccount(organizationId, id)).some((k) => !mayManage(actor, k))) {
        throw new DomainError(
          'forbidden',
          'This service account owns keys with scopes or environments your key lacks; deleting it would revoke them.',
        );
      }
      await keys.revokeForServiceAccount(organizationId, id, now);
      await audit?.record(tx, {
        organizationId,
        action: 'service_account.delete',
        target: { type: 'service_account', id },
        changes: {},
      });
    });
    this.deps.auth.forgetCached();
  }
}
