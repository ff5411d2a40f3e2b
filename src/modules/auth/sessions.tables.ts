export interface UserSessionRow {
  id: string;
  /** sha256 of the cookie's token; the token itself is never stored. */
  token_hash: string;
  user_id: string;
  organization_id: string;
  created_at: number;
  last_seen_at: number;
  /** The absolute end; the idle end is last_seen_at + the idle time. */
  expires_at: number;
  ended_at: number | null;
  user_agent: string | null;
  ip: string | null;
}

export interface SignInThrottleRow {
  /** `account:<email>` or `ip:<address>`. */
  subject: string;
  failures: number;
  last_failure_at: number;
  blocked_until: number;
}

export interface SessionsTables {
  user_session: UserSessionRow;
  sign_in_throttle: SignInThrottleRow;
}
