import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { RetryLaterError } from '../../../modules/auth/index.ts';
import {
  PAGE_SESSION_MS,
  pageSessionCookieName,
  type StatusPage,
  type StatusPagesService,
} from '../../../modules/status-pages/index.ts';
import { DomainError, notFound, validationFailed } from '../../../platform/errors.ts';
import { cookieOf } from '../../plugins/auth.plugin.ts';
import { bodyShapeDetails } from '../../request-context.ts';
import { hostNameOf } from './custom-domains.ts';
import { renderPasswordPage, statusPageSecurityHeaders } from './status-page.html.ts';

/** Whether this request may read the page: a public page always, a password page with its page session cookie. */
export function pageAccessAllowed(statusPages: StatusPagesService, request: FastifyRequest, page: StatusPage): boolean {
  if (page.access === 'public') return true;
  return statusPages.hasPageAccess(page, cookieOf(request, pageSessionCookieName(page)) ?? undefined);
}

/** The answer of a page route without the page's session (401 in the envelope). */
export function pageLocked(page: StatusPage): DomainError {
  return new DomainError(
    'unauthorized',
    `This status page is password-protected: open /status/${page.slug} and enter its password first.`,
  );
}

/**
 * The guard of every public route of a page (its HTML and JSON, feeds, summary.json, badges, subscribe): the
 * published page with this slug, or 404 (unknown or not public); 401 when it is password-protected and the request
 * carries no valid page session. Call it first, before reading anything of the page.
 */
export async function assertPageAccess(
  statusPages: StatusPagesService,
  request: FastifyRequest,
  slug: string,
): Promise<StatusPage> {
  const page = await statusPages.publicPage(slug);
  if (!page) throw notFound('Status page');
  if (!pageAccessAllowed(statusPages, request, page)) throw pageLocked(page);
  return page;
}

/** Whether the request reached the page at its custom domain (then its routes live at that host's root). */
function atCustomDomain(request: FastifyRequest, page: StatusPage): boolean {
  return page.customDomain !== null && hostNameOf(request.headers.host) === page.customDomain;
}

/**
 * The page session cookie: HttpOnly, SameSite=Lax, one per page (its name carries the page id), on the page's
 * routes only (Path=/status, or / at the page's custom domain, a host of its own), Secure when the request came
 * over https (directly, or through a trusted proxy's X-Forwarded-Proto) or the public URL is https.
 */
function setPageCookie(
  reply: FastifyReply,
  request: FastifyRequest,
  page: StatusPage,
  session: { value: string },
  publicUrl: string,
): void {
  const custom = atCustomDomain(request, page);
  const secure = request.protocol === 'https' || (!custom && publicUrl.startsWith('https:'));
  const maxAge = Math.floor(PAGE_SESSION_MS / 1000);
  reply.header(
    'set-cookie',
    `${pageSessionCookieName(page)}=${session.value}; Max-Age=${maxAge}; Path=${custom ? '/' : '/status'}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`,
  );
}

const UnlockParams = Type.Object({ slug: Type.String({ minLength: 1, maxLength: 80 }) });
const UnlockBody = Type.Object(
  {
    password: Type.String({ minLength: 1, maxLength: 1000, 'x-issue': 'must be the page password' }),
  },
  { description: 'JSON or an HTML form (application/x-www-form-urlencoded). Unknown fields are rejected.' },
);

/** A form body as an object of its fields (the last value of a repeated one). */
function parseForm(text: string): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(text));
}

/** POST /status/{slug}/access: the page's password form. */
export function registerPageAccessRoutes(
  app: FastifyInstance,
  deps: { statusPages: StatusPagesService; publicUrl: string },
): void {
  const { statusPages, publicUrl } = deps;
  void app.register(async (scope) => {
    // Forms post url-encoded; only this route reads that type (the rest of the API stays JSON only).
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 8192 },
      (_request, body, done) => done(null, parseForm(typeof body === 'string' ? body : body.toString('utf8'))),
    );
    scope.post<{ Params: Static<typeof UnlockParams>; Body: Static<typeof UnlockBody> }>(
      '/status/:slug/access',
      {
        config: { public: true, formBody: true },
        attachValidation: true,
        schema: {
          tags: ['status pages'],
          summary: 'Open a password-protected status page: sets its page session cookie',
          description:
            'A form post answers 303 to the page (or the password form again: 401 wrong password, 429 with Retry-After while guessing is slowed down); JSON answers 204. Repeated wrong passwords are slowed down per client address and per page.',
          operationId: 'unlockStatusPage',
          params: UnlockParams,
          body: UnlockBody,
          consumes: ['application/json', 'application/x-www-form-urlencoded'],
          response: { 204: Type.Null({ description: 'The page session cookie is set.' }) },
        },
      },
      async (request, reply) => {
        const form = !String(request.headers['content-type'] ?? '').includes('json');
        const page = await statusPages.publicPage(request.params.slug);
        reply.headers(statusPageSecurityHeaders(page?.allowEmbedding ?? false)).header('cache-control', 'no-store');
        if (!page) throw notFound('Status page');
        // A form of another site may not open a session here (login CSRF): a browser's Origin must be this host.
        const origin = request.headers.origin;
        if (origin !== undefined && origin !== 'null' && safeHost(origin) !== request.host) {
          throw new DomainError('csrf_failed', 'The password must be sent from the status page itself.');
        }
        const answerForm = (status: number, problem: string) =>
          reply.code(status).type('text/html; charset=utf-8').send(renderPasswordPage(page.slug, problem));
        if (request.validationError) {
          if (form) return answerForm(401, 'Enter the password.');
          throw validationFailed(bodyShapeDetails(request));
        }
        try {
          const session = await statusPages.unlock(page, request.body.password, request.ip);
          setPageCookie(reply, request, page, session, publicUrl);
        } catch (err) {
          if (!form || !(err instanceof DomainError)) throw err;
          if (err.code === 'invalid_credentials') return answerForm(401, 'Wrong password. Try again.');
          if (err instanceof RetryLaterError) {
            const wait = err.retryAfterSeconds;
            reply.header('retry-after', String(wait));
            return answerForm(429, `Too many wrong passwords. Try again in ${wait} s.`);
          }
          throw err;
        }
        if (!form) return reply.code(204).send();
        return reply
          .code(303)
          .header('location', atCustomDomain(request, page) ? '/' : `/status/${page.slug}`)
          .send();
      },
    );
  });
}

function safeHost(origin: string): string | null {
  try {
    return new URL(origin).host;
  } catch {
    return null;
  }
}
