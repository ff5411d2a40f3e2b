import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { SESSION_COOKIE, cookieOf } from '../../plugins/auth.plugin.ts';
import { checkOrigin, clientOf, presentSession, setSessionCookie } from './session.cookie.ts';
import {
  InvitationAcceptBody,
  InvitationLookupQuery,
  InvitationPreviewRecord,
  PasswordResetBody,
  PasswordResetConfirmBody,
  SessionRecord,
  refusals,
} from './session.schemas.ts';
import { withRetryAfter, type SessionRoutesDeps } from './sessions.routes.ts';

const tags = ['sessions'];

/**
 * What the mailed one-time links lead to: password reset and invitations. The links open web-app pages; a GET
 * never uses a link (mail scanners fetch links), only these POSTs do.
 */
export function registerAuthLinkRoutes(app: FastifyInstance, deps: SessionRoutesDeps): void {
  const { sessions, publicUrl } = deps;
  app.addSchema(InvitationPreviewRecord);

  app.post<{ Body: Static<typeof PasswordResetBody> }>(
    '/api/v1/auth/password-reset',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'Mail a one-time password reset link (always 202: whether the address has a user is not told)',
        operationId: 'requestPasswordReset',
        body: PasswordResetBody,
        response: { 202: Type.Object({ accepted: Type.Boolean() }), ...refusals(403) },
      },
    },
    async (request, reply) => {
      checkOrigin(request, publicUrl);
      await sessions.requestPasswordReset(request.body.email);
      return reply.code(202).send({ accepted: true });
    },
  );

  app.post<{ Body: Static<typeof PasswordResetConfirmBody> }>(
    '/api/v1/auth/password-reset/confirm',
    {
      config: { public: true },
      schema: {
        tags,
        summary: "Set a new password with the reset link's token; ends the user's other sessions",
        operationId: 'confirmPasswordReset',
        body: PasswordResetConfirmBody,
        response: {
          204: Type.Null({ description: 'The password is changed; sign in with it.' }),
          ...refusals(400, 403),
        },
      },
    },
    async (request, reply) => {
      checkOrigin(request, publicUrl);
      // A person resetting from a signed-in browser keeps that session; every other one ends.
      const current = cookieOf(request, SESSION_COOKIE);
      const actor = current ? await sessions.authenticate(current) : null;
      await sessions.confirmPasswordReset(
        request.body.token,
        request.body.password,
        actor?.sessionId ?? null,
        clientOf(request),
      );
      return reply.code(204).send();
    },
  );

  app.get<{ Querystring: Static<typeof InvitationLookupQuery> }>(
    '/api/v1/auth/invitations/lookup',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'What an invitation link offers (uses nothing: accepting is the POST)',
        operationId: 'lookupInvitation',
        querystring: InvitationLookupQuery,
        response: { 200: Type.Ref(InvitationPreviewRecord), ...refusals(400) },
      },
    },
    async (request) => {
      const preview = await sessions.lookupInvitation(request.query.token);
      return {
        organization: { name: preview.organizationName },
        email: preview.email,
        role: preview.role,
        existing_user: preview.existingUserId !== null,
      };
    },
  );

  app.post<{ Body: Static<typeof InvitationAcceptBody> }>(
    '/api/v1/auth/invitations/accept',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'Accept an invitation and sign in (new user: name and password; existing user: their password)',
        operationId: 'acceptInvitation',
        body: InvitationAcceptBody,
        response: { 201: Type.Ref(SessionRecord), ...refusals(400, 401, 403, 409, 429) },
      },
    },
    async (request, reply) => {
      checkOrigin(request, publicUrl);
      const signedIn = await withRetryAfter(reply, () => sessions.acceptInvitation(request.body, clientOf(request)));
      setSessionCookie(reply, signedIn, publicUrl, deps.clock.now());
      return reply.code(201).send(presentSession(signedIn.info));
    },
  );
}
