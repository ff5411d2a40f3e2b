import type { PlanName } from '../../config/index.ts';

/** `viewer` is read-only: every GET, no writes (DECISIONS §14). */
export const ROLES = ['owner', 'admin', 'member', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

/** Owners and admins manage the organization (members, invitations, settings, keys). */
export function isAdminRole(role: Role): boolean {
  return role === 'owner' || role === 'admin';
}

/**
 * Who asks, as far as the organization's own verbs need to know (the auth module's `Actor` fits; orgs sits below
 * auth and does not import it): the organization, the role, and the ids an invitation records as its inviter.
 */
export interface OrgActor {
  organizationId: string;
  role: Role;
  userId: string | null;
  keyId: string;
}

export interface Organization {
  id: string;
  name: string;
  plan: PlanName;
  defaultRegion: string;
  emailAlertsEnabled: boolean;
  createdAt: number;
  updatedAt: number;
}

export interface User {
  id: string;
  email: string;
  name: string | null;
  emailVerifiedAt: number | null;
  createdAt: number;
}

export interface Membership {
  organizationId: string;
  userId: string;
  role: Role;
  createdAt: number;
}

/**
 * An invitation to join an organization: its own record until the invitee follows the one-time link, and only
 * then a membership. It holds what the inviter sent and nothing about any user behind the address.
 */
export interface Invitation {
  id: string;
  organizationId: string;
  email: string;
  /** The name the inviter sent, or null. */
  name: string | null;
  role: Role;
  expiresAt: number;
  /** The user (or, for a key without a user, the API key) that sent it. */
  invitedBy: string;
  createdAt: number;
}
