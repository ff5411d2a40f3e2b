import type { PlanName } from '../../config/index.ts';

export const ROLES = ['owner', 'admin', 'member'] as const;
export type Role = (typeof ROLES)[number];

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
