import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { Alerting, Invitation, MemberView } from '../../../modules/alerting/index.ts';
import { ROLES, type Organization } from '../../../modules/orgs/index.ts';
import { toIso, toIsoOrNull } from '../../../platform/clock.ts';
import { actorOf } from '../../plugins/auth.plugin.ts';
import { NullableTimestamp, Timestamp } from '../../schemas/common.schemas.ts';
import { htmlPage } from './html.page.ts';

const tags = ['organization'];
const lit = <T extends string>(values: readonly T[]) => Type.Union(values.map((v) => Type.Literal(v)));

const OrganizationRecord = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    plan: Type.String(),
    email_alerts_enabled: Type.Boolean(),
    created_at: Timestamp(),
  },
  { $id: 'Organization', title: 'Organization' },
);
const MemberRecord = Type.Object(
  {
    user_id: Type.String(),
    email: Type.String(),
    name: Type.Union([Type.String(), Type.Null()]),
    role: lit(ROLES),
    email_verified: Type.Boolean(),
    email_verified_at: NullableTimestamp(),
  },
  { $id: 'Member', title: 'Member' },
);
const InvitationRecord = Type.Object(
  {
    email: Type.String(),
    name: Type.Union([Type.String(), Type.Null()], { description: 'The name sent with the invitation.' }),
    role: lit(ROLES),
    status: Type.Literal('invited'),
  },
  {
    $id: 'Invitation',
    title: 'Invitation',
    description:
      'The same whether the address is new or belongs to an existing user: no user id, no verification state.',
  },
);
const MemberList = Type.Object(
  { data: Type.Array(Type.Ref(MemberRecord)), next_cursor: Type.Null() },
  { $id: 'MemberList', title: 'MemberList' },
);
const OrganizationPatch = Type.Object({
  email_alerts_enabled: Type.Optional(
    Type.Boolean({ description: 'Email every verified member on down/recovered (default true).' }),
  ),
});
const InviteBody = Type.Object({
  email: Type.String({ maxLength: 254 }),
  role: Type.Optional(lit(ROLES)),
  name: Type.Optional(Type.String({ maxLength: 200 })),
});
const UserParams = Type.Object({ user_id: Type.String({ minLength: 1, maxLength: 64 }) });
const VerifyQuery = Type.Object({ token: Type.Optional(Type.String({ maxLength: 200 })) });

function presentInvitation(i: Invitation): Record<string, unknown> {
  return { email: i.email, name: i.name, role: i.role, status: 'invited' };
}

function presentOrganization(o: Organization): Record<string, unknown> {
  return {
    id: o.id,
    name: o.name,
    plan: o.plan,
    email_alerts_enabled: o.emailAlertsEnabled,
    created_at: toIso(o.createdAt),
  };
}

function presentMember(m: MemberView): Record<string, unknown> {
  return {
    user_id: m.user.id,
    email: m.user.email,
    name: m.user.name,
    role: m.role,
    email_verified: m.user.emailVerifiedAt !== null,
    email_verified_at: toIsoOrNull(m.user.emailVerifiedAt),
  };
}

/** The organization's settings, its members, and the public email verification page. */
export function registerMemberRoutes(app: FastifyInstance, deps: { alerting: Alerting }): void {
  const { members } = deps.alerting;
  for (const s of [OrganizationRecord, MemberRecord, InvitationRecord, MemberList]) app.addSchema(s);

  app.get(
    '/api/v1/auth/organization',
    {
      config: { scope: 'destinations:read' },
      schema: {
        tags,
        summary: 'Read the organization',
        operationId: 'getOrganization',
        response: { 200: Type.Ref(OrganizationRecord) },
      },
    },
    async (request) => presentOrganization(await members.getOrganization(actorOf(request))),
  );

  app.patch(
    '/api/v1/auth/organization',
    {
      config: { scope: 'destinations:write' },
      schema: {
        tags,
        summary: 'Update organization settings (owner/admin)',
        operationId: 'updateOrganization',
        body: OrganizationPatch,
        response: { 200: Type.Ref(OrganizationRecord) },
      },
    },
    async (request) => presentOrganization(await members.updateOrganization(actorOf(request), request.body)),
  );

  app.get(
    '/api/v1/auth/organization/members',
    {
      config: { scope: 'destinations:read' },
      schema: {
        tags,
        summary: 'List members with their email verification',
        operationId: 'listMembers',
        response: { 200: Type.Ref(MemberList) },
      },
    },
    async (request) => ({ data: (await members.list(actorOf(request))).map(presentMember), next_cursor: null }),
  );

  app.post(
    '/api/v1/auth/organization/members',
    {
      config: { scope: 'destinations:write' },
      schema: {
        tags,
        summary: 'Invite a member by email (owner/admin); sends the verification mail',
        operationId: 'inviteMember',
        body: InviteBody,
        response: { 201: Type.Ref(InvitationRecord) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(presentInvitation(await members.invite(actorOf(request), request.body))),
  );

  app.post<{ Params: Static<typeof UserParams> }>(
    '/api/v1/auth/organization/members/:user_id/resend-verification',
    {
      config: { scope: 'destinations:write' },
      schema: {
        tags,
        summary: 'Send the verification mail again (owner/admin)',
        operationId: 'resendVerification',
        params: UserParams,
        response: { 202: Type.Object({ sent: Type.Boolean() }) },
      },
    },
    async (request, reply) => {
      await members.resendVerification(actorOf(request), request.params.user_id);
      return reply.code(202).send({ sent: true });
    },
  );

  app.get<{ Querystring: Static<typeof VerifyQuery> }>(
    '/verify-email',
    { config: { public: true }, schema: { hide: true, querystring: VerifyQuery } },
    async (request, reply) => {
      const user = request.query.token ? await members.verifyEmail(request.query.token) : null;
      if (!user) {
        return reply
          .code(400)
          .type('text/html; charset=utf-8')
          .send(
            htmlPage(
              'Link not valid',
              'This verification link is unknown, already used or expired. Ask an admin to send a new one.',
            ),
          );
      }
      return reply
        .type('text/html; charset=utf-8')
        .send(htmlPage('Email confirmed', `${user.email} is confirmed; you will receive alert emails.`));
    },
  );
}
