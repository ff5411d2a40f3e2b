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

export interface AuthTables {
  api_key: ApiKeyRow;
  membership: { organization_id: string; user_id: string; role: string; created_at: number };
  organization: { id: string; plan: string };
}
