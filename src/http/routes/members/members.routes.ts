import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import {
  ROLES,
  type FollowedLink,
  type Invitation as PendingInvitation,
  type MembersService,
  type MemberView,
  type Organization,
  type SentInvitation as Invitation,
} from '../../../modules/orgs/index.ts';
import { toIso, toIsoOrNull } from '../../../platform/clock.ts';
import { actorOf } from '../../plugins/auth.plugin.ts';
import { auditOf } from '../../request-context.ts';
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
    default_region: Type.String({
      description: 'Where a new monitor runs when its request names no `region_codes` (a configured region).',
    }),
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
    status: Type.Literal('active'),
    email_verified: Type.Boolean(),
    email_verified_at: NullableTimestamp(),
  },
  { $id: 'Member', title: 'Member', description: 'A member who has accepted (or was made by `admin bootstrap`).' },
);
const PendingInvitationRecord = Type.Object(
  {
    invitation_id: Type.String(),
    email: Type.String(),
    name: Type.Union([Type.String(), Type.Null()], { description: 'The name sent with the invitation.' }),
    role: lit(ROLES),
    status: Type.Literal('invited'),
    invited_at: Timestamp(),
    expires_at: Timestamp('When its link stops working; a resend gives a new link and expiry.'),
  },
  {
    $id: 'PendingInvitation',
    title: 'PendingInvitation',
    description:
      'An invitation not accepted yet: what the inviter sent, the same whether the address is new or belongs to an existing user (no user id, no verification state).',
  },
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
  {
    data: Type.Array(Type.Union([Type.Ref(MemberRecord), Type.Ref(PendingInvitationRecord)]), {
      description: 'Members (`status: active`), then pending invitations (`status: invited`), oldest first.',
    }),
    next_cursor: Type.Null(),
  },
  { $id: 'MemberList', title: 'MemberList' },
);
const OrganizationPatch = Type.Object({
  email_alerts_enabled: Type.Optional(
    Type.Boolean({ description: 'Email every verified member on down/recovered (default true).' }),
  ),
  default_region: Type.Optional(
    Type.String({
      maxLength: 64,
      description: 'One of the configured regions; new monitors without `region_codes` run there.',
    }),
  ),
});
const InviteBody = Type.Object({
  email: Type.String({ maxLength: 254 }),
  role: Type.Optional(lit(ROLES)),
  name: Type.Optional(Type.String({ maxLength: 200 })),
});
const UserParams = Type.Object({ user_id: Type.String({ minLength: 1, maxLength: 64 }) });
const InvitationParams = Type.Object({ invitation_id: Type.String({ minLength: 1, maxLength: 64 }) });
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
    default_region: o.defaultRegion,
    created_at: toIso(o.createdAt),
  };
}

function presentMember(m: MemberView): Record<string, unknown> {
  return {
    user_id: m.user.id,
    email: m.user.email,
    name: m.user.name,
    role: m.role,
    status: 'active',
    email_verified: m.user.emailVerifiedAt !== null,
    email_verified_at: toIsoOrNull(m.user.emailVerifiedAt),
  };
}

function presentPendingInvitation(i: PendingInvitation): Record<string, unknown> {
  return {
    invitation_id: i.id,
    email: i.email,
    name: i.name,
    role: i.role,
    status: 'invited',
    invited_at: toIso(i.createdAt),
    expires_at: toIso(i.expiresAt),
  };
}

function followedPage(followed: FollowedLink): string {
  return htmlPage('Email confirmed', `${followed.user.email} is confirmed; you will receive alert emails.`);
}

/** The organization's settings, its members and invitations, and the public page their mailed links open. */
export function registerMemberRoutes(app: FastifyInstance, deps: { members: MembersService }): void {
  const { members } = deps;
  for (const s of [OrganizationRecord, MemberRecord, PendingInvitationRecord, InvitationRecord, MemberList])
    app.addSchema(s);

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
    async (request) =>
      presentOrganization(await members.updateOrganization(actorOf(request), request.body, auditOf(request))),
  );

  app.get(
    '/api/v1/auth/organization/members',
    {
      config: { scope: 'destinations:read' },
      schema: {
        tags,
        summary: 'List members with their email verification, and pending invitations',
        operationId: 'listMembers',
        response: { 200: Type.Ref(MemberList) },
      },
    },
    async (request) => {
      const list = await members.list(actorOf(request));
      return {
        data: [...list.members.map(presentMember), ...list.invitations.map(presentPendingInvitation)],
        next_cursor: null,
      };
    },
  );

  app.post(
    '/api/v1/auth/organization/members',
    {
      config: { scope: 'destinations:write' },
      schema: {
        tags,
        summary: 'Invite a member by email (owner/admin); mails a one-time link that makes the membership',
        operationId: 'inviteMember',
        body: InviteBody,
        response: { 201: Type.Ref(InvitationRecord) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(presentInvitation(await members.invite(actorOf(request), request.body, auditOf(request)))),
  );

  app.post<{ Params: Static<typeof UserParams> }>(
    '/api/v1/auth/organization/members/:user_id/resend-verification',
    {
      config: { scope: 'destinations:write' },
      schema: {
        tags,
        summary: 'Send a member the verification mail again (owner/admin)',
        operationId: 'resendVerification',
        params: UserParams,
        response: { 202: Type.Object({ sent: Type.Boolean() }) },
      },
    },
    async (request, reply) => {
      await members.resendVerification(actorOf(request), request.params.user_id, auditOf(request));
      return reply.code(202).send({ sent: true });
    },
  );

  app.post<{ Params: Static<typeof InvitationParams> }>(
    '/api/v1/auth/organization/invitations/:invitation_id/resend',
    {
      config: { scope: 'destinations:write' },
      schema: {
        tags,
        summary: 'Mail a pending invitation again with a new link (owner/admin); the previous link stops working',
        operationId: 'resendInvitation',
        params: InvitationParams,
        response: { 202: Type.Object({ sent: Type.Boolean() }) },
      },
    },
    async (request, reply) => {
      await members.resendInvitation(actorOf(request), request.params.invitation_id, auditOf(request));
      return reply.code(202).send({ sent: true });
    },
  );

  app.delete<{ Params: Static<typeof InvitationParams> }>(
    '/api/v1/auth/organization/invitations/:invitation_id',
    {
      config: { scope: 'destinations:write' },
      schema: {
        tags,
        summary: 'Revoke a pending invitation (owner/admin); its link stops working',
        operationId: 'revokeInvitation',
        params: InvitationParams,
        response: { 204: Type.Null({ description: 'Revoked.' }) },
      },
    },
    async (request, reply) => {
      await members.revokeInvitation(actorOf(request), request.params.invitation_id, auditOf(request));
      return reply.code(204).send();
    },
  );

  app.get<{ Querystring: Static<typeof VerifyQuery> }>(
    '/verify-email',
    { config: { public: true }, schema: { hide: true, querystring: VerifyQuery } },
    async (request, reply) => {
      const followed = request.query.token ? await members.followLink(request.query.token) : null;
      if (!followed) {
        return reply
          .code(400)
          .type('text/html; charset=utf-8')
          .send(
            htmlPage(
              'Link not valid',
              'This link is unknown, already used or expired. Ask an admin of the organization to send a new one.',
            ),
          );
      }
      return reply.type('text/html; charset=utf-8').send(followedPage(followed));
    },
  );
}
