export interface OrganizationRow {
  id: string;
  name: string;
  plan: string;
  default_region: string;
  email_alerts_enabled: number;
  created_at: number;
  updated_at: number;
}

export interface UserRow {
  id: string;
  email: string;
  name: string | null;
  email_verified_at: number | null;
  created_at: number;
  /** Added by 202611240037_orgs_passwords: a self-describing password hash, or null (no password set). */
  password_hash?: string | null;
}

export interface MembershipRow {
  organization_id: string;
  user_id: string;
  role: string;
  created_at: number;
}

export interface EmailVerificationRow {
  token_hash: string;
  user_id: string;
  expires_at: number;
  used_at: number | null;
  created_at: number;
}

export interface InvitationRow {
  id: string;
  organization_id: string;
  email: string;
  name: string | null;
  role: string;
  token_hash: string;
  expires_at: number;
  invited_by: string;
  created_at: number;
}

export interface PasswordResetRow {
  token_hash: string;
  user_id: string;
  expires_at: number;
  used_at: number | null;
  created_at: number;
}

export interface OrgsTables {
  password_reset: PasswordResetRow;
  email_verification: EmailVerificationRow;
  invitation: InvitationRow;
  organization: OrganizationRow;
  app_user: UserRow;
  membership: MembershipRow;
}
