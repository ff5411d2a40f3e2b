import type { Clock } from '../../platform/clock.ts';
import { decodeIdCursor, pageOf } from '../../platform/cursor.ts';
import { notFound, validationFailed } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { actorRef, type Actor } from './actor.ts';
import type { ServiceAccount } from './api-key.types.ts';
import { serviceAccountOf, type Page } from './api-keys.service.ts';
import type { ApiKeysRepository } from './api-keys.repository.ts';
import type { AuthService } from './auth.service.ts';
import type { ServiceAccountsRepository } from './service-accounts.repository.ts';

/** Service accounts own keys that must outlive any one person's membership. */
export class ServiceAccountsService {
  private readonly deps: {
    repository: ServiceAccountsRepository;
    keys: ApiKeysRepository;
    auth: AuthService;
    clock: Clock;
  };
  constructor(deps: {
    repository: ServiceAccountsRepository;
    keys: ApiKeysRepository;
    auth: AuthService;
    clock: Clock;
  }) {
    this.deps = deps;
  }

  async create(
    organizationId: string,
    input: { name: string; role: 'admin' | 'member' },
    actor: Actor | null,
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
    await this.deps.repository.insert(row);
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

  /** Deletes the account and revokes every key it owns. */
  async delete(organizationId: string, id: string): Promise<void> {
    const now = this.deps.clock.now();
    if (!(await this.deps.repository.markDeleted(organizationId, id, now))) throw notFound('Service account');
    await this.deps.keys.revokeForServiceAccount(organizationId, id, now);
    this.deps.auth.forgetCached();
  }
}
