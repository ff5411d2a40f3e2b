import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { RetryLaterError, type SessionService } from '../../../modules/auth/index.ts';
import type { Clock } from '../../../platform/clock.ts';
import { toIso } from '../../../platform/clock.ts';
import { actorOf } from '../../plugins/auth.plugin.ts';
import { auditOf } from '../../request-context.ts';
import { checkOrigin, clearSessionCookie, clientOf, presentSession, setSessionCookie } from './session.cookie.ts';
import {
  SessionIdParams,
  SessionListRecord,
  SessionRecord,
  SetupBody,
  SetupStatus,
  SignInBody,
  refusals,
} from './session.schemas.ts';

const tags = ['sessions'];

export interface SessionRoutesDeps {
  sessions: SessionService;
  clock: Clock;
  publicUrl: string;
}

/** Runs `work`; a throttled refusal gets its Retry-After before the error handler answers 429. */
export async function withRetryAfter<T>(reply: FastifyReply, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof RetryLaterError) reply.header('retry-after', String(err.retryAfterSeconds));
    throw err;
  }
}

/** First run, sign-in and sign-out, the current session and the person's sessions (DECISIONS §14). */
export function registerSessionRoutes(app: FastifyInstance, deps: SessionRoutesDeps): void {
  const { sessions, publicUrl } = deps;
  for (const s of [SessionRecord, SessionListRecord]) app.addSchema(s);

  app.get(
    '/api/v1/auth/setup',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'Whether this installation still needs its first organization (the first-run page)',
        operationId: 'getSetup',
        response: { 200: SetupStatus },
      },
    },
    async () => ({ needed: await sessions.setupNeeded() }),
  );

  app.post<{ Body: Static<typeof SetupBody> }>(
    '/api/v1/auth/setup',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'First run: create the organization, its owner and a session (409 already_set_up afterwards)',
        operationId: 'setup',
        body: SetupBody,
        response: { 201: Type.Ref(SessionRecord), ...refusals(403, 409) },
      },
    },
    async (request, reply) => {
      checkOrigin(request, publicUrl);
      const signedIn = await sessions.setup(request.body, clientOf(request));
      setSessionCookie(reply, signedIn, publicUrl, deps.clock.now());
      return reply.code(201).send(presentSession(signedIn.info));
    },
  );

  app.post<{ Body: Static<typeof SignInBody> }>(
    '/api/v1/auth/sessions',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'Sign in with email and password (sets the tocsin_session cookie)',
        description:
          'A wrong address and a wrong password give the same 401 invalid_credentials. Repeated failures for one account or from one address are slowed down: 429 with Retry-After.',
        operationId: 'signIn',
        body: SignInBody,
        response: { 201: Type.Ref(SessionRecord), ...refusals(401, 403, 429) },
      },
    },
    async (request, reply) => {
      checkOrigin(request, publicUrl);
      const signedIn = await withRetryAfter(reply, () =>
        sessions.signIn(request.body.email, request.body.password, clientOf(request)),
      );
      setSessionCookie(reply, signedIn, publicUrl, deps.clock.now());
      return reply.code(201).send(presentSession(signedIn.info));
    },
  );

  app.get(
    '/api/v1/auth/session',
    {
      config: { session: true },
      schema: {
        tags,
        summary: 'The current session: user, organization, role and CSRF token (401 without one)',
        operationId: 'getSession',
        response: { 200: Type.Ref(SessionRecord) },
      },
    },
    async (request) => presentSession(await sessions.describe(actorOf(request), request.sessionToken!)),
  );

  app.delete(
    '/api/v1/auth/session',
    {
      config: { session: true },
      schema: {
        tags,
        summary: 'Sign out: ends this session and clears its cookie',
        operationId: 'signOut',
        response: { 204: Type.Null({ description: 'Signed out.' }) },
      },
    },
    async (request, reply) => {
      await sessions.signOut(actorOf(request), auditOf(request));
      clearSessionCookie(reply, publicUrl);
      return reply.code(204).send();
    },
  );

  app.get(
    '/api/v1/auth/sessions',
    {
      config: { session: true },
      schema: {
        tags,
        summary: "The signed-in person's live sessions (this one has current: true)",
        operationId: 'listSessions',
        response: { 200: Type.Ref(SessionListRecord) },
      },
    },
    async (request) => ({
      data: (await sessions.list(actorOf(request))).map((s) => ({
        id: s.id,
        created_at: toIso(s.createdAt),
        last_seen_at: toIso(s.lastSeenAt),
        user_agent: s.userAgent,
        ip: s.ip,
        current: s.current,
      })),
    }),
  );

  app.delete<{ Params: Static<typeof SessionIdParams> }>(
    '/api/v1/auth/sessions/:id',
    {
      config: { session: true },
      schema: {
        tags,
        summary: 'End one of your sessions (e.g. on another device)',
        operationId: 'endSession',
        params: SessionIdParams,
        response: { 204: Type.Null({ description: 'Ended.' }) },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      await sessions.end(actor, request.params.id, auditOf(request));
      if (request.params.id === actor.sessionId) clearSessionCookie(reply, publicUrl);
      return reply.code(204).send();
    },
  );
}
