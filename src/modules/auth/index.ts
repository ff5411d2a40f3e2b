export { AuthService, DEFAULT_RATE_LIMITS, type AuthServiceDeps, type IssueKeyInput } from './auth.service.ts';
export { ApiKeysRepository } from './api-keys.repository.ts';
export { authMigrations } from './auth.migrations.ts';
export { SCOPES, ADMIN_ONLY_SCOPES, isScope, expandScopes, type Scope } from './scopes.ts';
export { canSeeEnvironment, isAdmin, actorRef, type Actor, type RateBudgets } from './actor.ts';
export { generateApiKey, isWellFormedApiKey, hashApiKey } from './api-key.format.ts';
