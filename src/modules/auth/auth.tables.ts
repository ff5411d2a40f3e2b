export interface ApiKeyRow {
  id: string;
  organization_id: string;
  name: string;
  prefix: string;
  hash: string;
  previous_hash: string | null;
  previous_valid_until: number | null;
  scopes: string;
  environments: string;
  expires_at: number | null;
  read_per_minute: number;
  write_per_minute: number;
  delete_per_minute: number;
  created_by: string | null;
  user_id: string | null;
  service_account_id: string | null;
  last_used_at: number | null;
  revoked_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface ServiceAccountRow {
  id: string;
  organization_id: string;
  name: string;
  role: string;
  created_by: string | null;
  created_at: number;
  deleted_at: number | null;
}

export interface IdempotencyKeyRow {
  id: string;
  organization_id: string;
  /** The key that made the request: records are scoped to it. */
  api_key_id: string;
  key: string;
  method: string;
  path: string;
  body_hash: string;
  state: 'in_progress' | 'completed';
  status: number | null;
  response_body: string | null;
  response_headers: string | null;
  created_at: number;
  expires_at: number;
}

export interface ApiKeyUsageRow {
  key_id: string;
  organization_id: string;
  minute: number;
  read_count: number;
  write_count: number;
  delete_count: number;
  status_2xx: number;
  status_3xx: number;
  status_4xx: number;
  status_5xx: number;
}

export interface AuthTables {
  api_key: ApiKeyRow;
  service_account: ServiceAccountRow;
  idempotency_key: IdempotencyKeyRow;
  api_key_usage: ApiKeyUsageRow;
}
