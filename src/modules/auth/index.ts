export { createAuth, type AuthDeps } from './auth.module.ts';
export { DEFAULT_RATE_LIMITS, type AuthService, type IssueKeyInput } from './auth.service.ts';
export {
  ApiKeysService,
  DEFAULT_GRACE_SECONDS,
  keyBodyIssues,
  type ApiKeysServiceDeps,
  type CreateKeyInput,
} from './api-keys.service.ts';
export { ServiceAccountsService } from './service-accounts.service.ts';
export {
  IdempotencyService,
  IDEMPOTENCY_TTL_MS,
  isValidIdempotencyKey,
  bodyHash,
  type StoredResponse,
  type IdempotencyStart,
} from './idempotency.service.ts';
export { UsageRecorder } from './usage.recorder.ts';
export type { ApiMetrics } from './api-metrics.ts';
export {
  RateLimiter,
  MemoryRateLimitStore,
  budgetClassOf,
  gcra,
  RATE_PERIOD_MS,
  type BudgetClass,
  type RateDecision,
  type RateLimitStore,
} from './rate-limit.ts';
export { RedisRateLimitStore } from './rate-limit.redis.ts';
export type { ApiKey, ServiceAccount, KeyUsage, UsageBucket, RateLimitSettings } from './api-key.types.ts';
export { authMigrations } from './auth.migrations.ts';
export { SCOPES, ADMIN_ONLY_SCOPES, isScope, expandScopes, type Scope } from './scopes.ts';
export { canSeeEnvironment, isAdmin, actorRef, auditActorOf, type Actor, type RateBudgets } from './actor.ts';
export { withDatabase, type ServiceContext } from './service-context.ts';
export { generateApiKey, isWellFormedApiKey, hashApiKey } from './api-key.format.ts';
export { createApiAccess, type ApiAccessServices, type ApiAccessOptions } from './api-access.module.ts';
export { apiKeyView } from './api-key.view.ts';
export { SessionService, type SessionServiceDeps } from './session.service.ts';
export {
  SESSION_LIFETIMES,
  SESSION_RATE_LIMITS,
  type ClientInfo,
  type SessionInfo,
  type SessionListItem,
  type SessionMailer,
  type SignedIn,
  type SessionLifetimes,
} from './session.types.ts';
export { SignInThrottle, RetryLaterError, DEFAULT_THROTTLE, type ThrottlePolicy } from './sign-in.throttle.ts';
export { csrfMatches } from './csrf.ts';
export { hashPassword, verifyPassword, passwordIssue } from './password.hash.ts';
