export { OrgsService, type OrgsServiceDeps } from './orgs.service.ts';
export { OrgsRepository } from './orgs.repository.ts';
export { Plans } from './plans.policy.ts';
export { orgsMigrations } from './orgs.migrations.ts';
export { ROLES, type Role, type Organization, type User, type Membership } from './orgs.types.ts';
