import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { SessionService } from '../../../modules/auth/index.ts';
import { ROLES } from '../../../modules/orgs/index.ts';
import { actorOf } from '../../plugins/auth.plugin.ts';
import { auditOf } from '../../request-context.ts';

const lit = <T extends string>(values: readonly T[]) => Type.Union(values.map((v) => Type.Literal(v)));
const UserParams = Type.Object({ user_id: Type.String({ minLength: 1, maxLength: 64 }) });
const RoleBody = Type.Object({
  role: lit(ROLES),
});

/** Changing a member's role (owner/admin; only an owner makes or unmakes owners; one owner always stays). */
export function registerMemberRoleRoutes(app: FastifyInstance, deps: { sessions: SessionService }): void {
  app.patch<{ Params: Static<typeof UserParams>; Body: Static<typeof RoleBody> }>(
    '/api/v1/auth/organization/members/:user_id',
    {
      config: { scope: 'destinations:write' },
      schema: {
        tags: ['organization'],
        summary: "Change a member's role (owner/admin): owner, admin, member or viewer (read-only)",
        operationId: 'changeMemberRole',
        params: UserParams,
        body: RoleBody,
        response: {
          200: Type.Object({
            user_id: Type.String(),
            email: Type.String(),
            name: Type.Union([Type.String(), Type.Null()]),
            role: lit(ROLES),
          }),
        },
      },
    },
    async (request) => {
      const changed = await deps.sessions.changeRole(
        actorOf(request),
        request.params.user_id,
        request.body.role,
        auditOf(request),
      );
      return { user_id: changed.user.id, email: changed.user.email, name: changed.user.name, role: changed.role };
    },
  );
}
