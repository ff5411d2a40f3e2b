import type { Scope } from './scopes.ts';

export interface RateLimitSettings {
  read_per_minute: number;
  write_per_minute: number;
  delete_per_minute: number;
}

/** A key as it may be shown: never its value or hash. */
export interface ApiKey {
  id: string;
  organizationId: string;
  name: string;
  prefix: string;
  scopes: Scope[];
  environments: string[];
  expiresAt: number | null;
  rateLimits: RateLimitSettings;
  createdBy: string | null;
  userId: string | null;
  serviceAccountId: string | null;
  lastUsedAt: number | null;
  revokedAt: number | null;
  createdAt: number;
}

export interface ServiceAccount {
  id: string;
  organizationId: string;
  name: string;
  role: 'admin' | 'member';
  createdBy: string | null;
  createdAt: number;
}

export interface UsageBucket {
  start: number;
  read: number;
  write: number;
  delete: number;
  status_2xx: number;
  status_3xx: number;
  status_4xx: number;
  status_5xx: number;
}

export interface KeyUsage {
  keyId: string;
  from: number;
  to: number;
  resolution: 'minute' | 'hour' | 'day';
  lastUsedAt: number | null;
  buckets: UsageBucket[];
  totals: Omit<UsageBucket, 'start'> & { requests: number };
}
