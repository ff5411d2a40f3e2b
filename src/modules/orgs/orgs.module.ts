import type { PlanName } from '../../config/index.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Database } from '../../platform/db/index.ts';
import { OrgsRepository } from './orgs.repository.ts';
import { OrgsService } from './orgs.service.ts';

export interface OrgsDeps {
  database: Database;
  clock: Clock;
  /** The plan and region of an organization created without one. */
  defaultPlan: PlanName;
  defaultRegion: string;
}

/** Builds the orgs module: organizations, users, memberships, invitations and email verification over `database`. */
export function createOrgs(deps: OrgsDeps): OrgsService {
  return new OrgsService({
    database: deps.database,
    repository: new OrgsRepository(deps.database),
    clock: deps.clock,
    defaultPlan: deps.defaultPlan,
    defaultRegion: deps.defaultRegion,
  });
}
