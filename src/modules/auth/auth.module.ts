import type { Clock } from '../../platform/clock.ts';
import type { Database } from '../../platform/db/index.ts';
import { ApiKeysRepository } from './api-keys.repository.ts';
import { AuthService } from './auth.service.ts';

export interface AuthDeps {
  database: Database;
  clock: Clock;
  /** How long a resolved key is reused without asking the database (AuthService's default when absent). */
  cacheMs?: number;
}

/** Builds the key resolver and issuer (API keys over `database`); createApiAccess builds the rest of auth on it. */
export function createAuth(deps: AuthDeps): AuthService {
  return new AuthService({
    keys: new ApiKeysRepository(deps.database),
    clock: deps.clock,
    ...(deps.cacheMs !== undefined && { cacheMs: deps.cacheMs }),
  });
}
