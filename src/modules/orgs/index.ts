export { createOrgs, type OrgsDeps } from './orgs.module.ts';
export type { IssuedInvitation, OrgsService } from './orgs.service.ts';
export { Plans } from './plans.policy.ts';
export { OrgAccessColumns } from './org-access.repository.ts';
export { orgsMigrations } from './orgs.migrations.ts';
export {
  isAdminRole,
  ROLES,
  type OrgActor,
  type Role,
  type Organization,
  type User,
  type Membership,
  type Invitation,
} from './orgs.types.ts';
export {
  createCredentials,
  CredentialsService,
  type CredentialsDeps,
  type InvitationPreview,
  type AcceptedInvitation,
} from './credentials.service.ts';
export {
  MembersService,
  type MembersServiceDeps,
  type FollowedLink,
  type MemberView,
  type MembersList,
  type Invitation as SentInvitation,
} from './members.service.ts';
