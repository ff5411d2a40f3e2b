import { type Static, Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Subscriber, SubscribersService } from '../../../modules/status-pages/index.ts';
import { toIso } from '../../../platform/clock.ts';
import { DomainError } from '../../../platform/errors.ts';
import { contextOf } from '../../request-context.ts';
import { IdParams } from '../../schemas/common.schemas.ts';
import { renderSubscriptionPage, statusPageSecurityHeaders } from './status-page.html.ts';
import {
  CreatedWebhookSubscriber,
  SlugParams,
  SubscribeAccepted,
  SubscribeBody,
  SubscriberList,
  SubscriberListQuery,
  SubscriberParams,
  SubscriberRecord,
  TokenQuery,
  WebhookSubscriberBody,
} from './status-page-subscribers.schemas.ts';

const tags = ['status pages'];
const FORM = 'application/x-www-form-urlencoded';
const SUBSCRIBE_ANSWER =
  'If this address can subscribe, a mail with a confirmation link is on its way. The link works for 24 hours.';

export function presentSubscriber(s: Subscriber): Record<string, unknown> {
  return {
    id: s.id,
    type: s.kind,
    email: s.kind === 'email' ? s.address : null,
    url: s.kind === 'webhook' ? s.address : null,
    status: s.confirmedAt === null ? 'pending' : 'confirmed',
    created_at: toIso(s.createdAt),
    confirmed_at: s.confirmedAt === null ? null : toIso(s.confirmedAt),
  };
}

function isForm(request: FastifyRequest): boolean {
  return (request.headers['content-type'] ?? '').toLowerCase().startsWith(FORM);
}

function html(reply: FastifyReply, status: number, body: string): FastifyReply {
  return reply
    .code(status)
    .headers(statusPageSecurityHeaders(false))
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(body);
}

/**
 * Subscribers of status pages (DECISIONS §18): the owner's list, removal and webhook subscribers; the public
 * subscribe (JSON or the page's form), the confirmation link and the RFC 8058 one-click unsubscribe.
 */
export function registerStatusPageSubscriberRoutes(
  app: FastifyInstance,
  deps: { subscribers: SubscribersService },
): void {
  const { subscribers } = deps;
  for (const schema of [SubscriberRecord, SubscriberList, CreatedWebhookSubscriber]) app.addSchema(schema);

  app.get<{ Params: Static<typeof IdParams>; Querystring: Static<typeof SubscriberListQuery> }>(
    '/api/v1/status-pages/:id/subscribers',
    {
      config: { scope: 'status_pages:read' },
      schema: {
        tags,
        summary: "List a status page's subscribers",
        operationId: 'listStatusPageSubscribers',
        params: IdParams,
        querystring: SubscriberListQuery,
        response: { 200: Type.Ref(SubscriberList) },
      },
    },
    async (request) => {
      const { limit, cursor } = request.query;
      const page = await subscribers.list(contextOf(request), request.params.id, {
        limit: limit ?? 50,
        ...(cursor !== undefined && { cursor }),
      });
      return { data: page.data.map(presentSubscriber), next_cursor: page.next_cursor };
    },
  );

  app.post<{ Params: Static<typeof IdParams>; Body: Static<typeof WebhookSubscriberBody> }>(
    '/api/v1/status-pages/:id/subscribers',
    {
      config: { scope: 'status_pages:write' },
      schema: {
        tags,
        summary: 'Add a webhook subscriber to a status page',
        operationId: 'createStatusPageWebhookSubscriber',
        params: IdParams,
        body: WebhookSubscriberBody,
        response: { 201: Type.Ref(CreatedWebhookSubscriber) },
      },
    },
    async (request, reply) => {
      const created = await subscribers.addWebhook(contextOf(request), request.params.id, request.body.url);
      return reply
        .code(201)
        .send({ subscriber: presentSubscriber(created.subscriber), signing_secret: created.signingSecret });
    },
  );

  app.delete<{ Params: Static<typeof SubscriberParams> }>(
    '/api/v1/status-pages/:id/subscribers/:sid',
    {
      config: { scope: 'status_pages:write' },
      schema: {
        tags,
        summary: 'Remove a subscriber from a status page',
        operationId: 'deleteStatusPageSubscriber',
        params: SubscriberParams,
        response: { 204: Type.Null({ description: 'Removed: nothing more is sent to it.' }) },
      },
    },
    async (request, reply) => {
      await subscribers.remove(contextOf(request), request.params.id, request.params.sid);
      return reply.code(204).send();
    },
  );

  // Public. A scope of its own: the page's form and RFC 8058's one-click POST are form-encoded.
  void app.register(async (scope) => {
    scope.addContentTypeParser(FORM, { parseAs: 'string' }, (_request, body, done) => {
      const text = typeof body === 'string' ? body : body.toString('utf8');
      done(null, Object.fromEntries(new URLSearchParams(text)));
    });

    scope.post<{ Params: Static<typeof SlugParams>; Body: Static<typeof SubscribeBody> }>(
      '/status/:slug/subscribe',
      {
        config: { public: true, formBody: true },
        schema: {
          tags,
          summary: 'Subscribe an email address to a public status page (double opt-in)',
          description:
            'Answers the same whether the address is new, pending or subscribed already. A form post (from the public page) is answered with an HTML page.',
          operationId: 'subscribeToStatusPage',
          params: SlugParams,
          body: SubscribeBody,
          consumes: ['application/json', FORM],
          response: { 202: SubscribeAccepted },
        },
        attachValidation: true,
      },
      async (request, reply) => {
        const form = isForm(request);
        const back = `../${encodeURIComponent(request.params.slug)}`;
        try {
          if (request.validationError && !form) {
            throw new DomainError('validation_failed', 'The request is not valid.', [
              { field: 'email', issue: 'must be an email address such as name@example.com' },
            ]);
          }
          const email = (request.body as { email?: unknown } | undefined)?.email;
          await subscribers.subscribe(request.params.slug, email, request.ip);
        } catch (err) {
          if (!form || !(err instanceof DomainError)) throw err;
          const status = err.code === 'validation_failed' ? 422 : err.code === 'rate_limited' ? 429 : 404;
          const text =
            status === 422
              ? ['That does not look like an email address. Go back and check it.']
              : status === 429
                ? ['Too many requests from your network. Try again in a few minutes.']
                : ['This page does not take subscriptions.'];
          return html(
            reply,
            status,
            renderSubscriptionPage({ title: 'Subscribe', heading: 'Not subscribed', text, backTo: back }),
          );
        }
        if (form) {
          return html(
            reply,
            200,
            renderSubscriptionPage({
              title: 'Check your inbox',
              heading: 'Check your inbox',
              text: [SUBSCRIBE_ANSWER],
              backTo: back,
            }),
          );
        }
        return reply.code(202).send({ status: 'pending', message: SUBSCRIBE_ANSWER });
      },
    );

    const linkRoute = (path: 'confirm' | 'unsubscribe', summary: string, method: 'GET' | 'POST') => ({
      config: { public: true },
      schema: {
        tags,
        summary,
        operationId: `${path}StatusPageSubscription${method === 'GET' ? 'Page' : ''}`,
        params: SlugParams,
        querystring: TokenQuery,
        produces: ['text/html'],
      },
    });

    scope.get<{ Params: Static<typeof SlugParams>; Querystring: Static<typeof TokenQuery> }>(
      '/status/:slug/confirm',
      linkRoute('confirm', 'The confirmation link of a subscription: a page with a button that confirms', 'GET'),
      async (request, reply) => {
        const found = await subscribers.confirmable(request.params.slug, request.query.token);
        if (!found) return html(reply, 410, invalidLink('confirm'));
        return html(
          reply,
          200,
          renderSubscriptionPage({
            title: 'Confirm subscription',
            heading: `Confirm your subscription to ${found.title} status`,
            text: ['Press the button to start receiving updates.'],
            button: { label: 'Confirm subscription' },
          }),
        );
      },
    );

    scope.post<{ Params: Static<typeof SlugParams>; Querystring: Static<typeof TokenQuery> }>(
      '/status/:slug/confirm',
      linkRoute('confirm', 'Confirms a subscription (the button of the confirmation page)', 'POST'),
      async (request, reply) => {
        const confirmed = await subscribers.confirm(request.params.slug, request.query.token);
        if (!confirmed) return html(reply, 410, invalidLink('confirm'));
        return html(
          reply,
          200,
          renderSubscriptionPage({
            title: 'Subscribed',
            heading: 'You are subscribed',
            text: [`You will get a mail when ${confirmed.title} publishes a notice or plans maintenance.`],
            backTo: `../${encodeURIComponent(request.params.slug)}`,
          }),
        );
      },
    );

    scope.get<{ Params: Static<typeof SlugParams>; Querystring: Static<typeof TokenQuery> }>(
      '/status/:slug/unsubscribe',
      linkRoute('unsubscribe', 'The unsubscribe link of every mail: a page with a button that unsubscribes', 'GET'),
      async (request, reply) => {
        const found = await subscribers.unsubscribable(request.params.slug, request.query.token);
        if (!found) return html(reply, 410, invalidLink('unsubscribe'));
        return html(
          reply,
          200,
          renderSubscriptionPage({
            title: 'Unsubscribe',
            heading: `Unsubscribe from ${found.title} status`,
            text: [`${found.address} will get no more mails from this page.`],
            button: { label: 'Unsubscribe', field: { name: 'List-Unsubscribe', value: 'One-Click' } },
          }),
        );
      },
    );

    scope.post<{ Params: Static<typeof SlugParams>; Querystring: Static<typeof TokenQuery> }>(
      '/status/:slug/unsubscribe',
      linkRoute('unsubscribe', 'Unsubscribes (RFC 8058 one-click POST, or the button of the page)', 'POST'),
      async (request, reply) => {
        const title = await subscribers.pageTitle(request.params.slug);
        const removed = await subscribers.unsubscribe(request.params.slug, request.query.token);
        if (!removed && title === null) return html(reply, 410, invalidLink('unsubscribe'));
        // Unsubscribing twice is not an error: the address gets nothing either way.
        return html(
          reply,
          200,
          renderSubscriptionPage({
            title: 'Unsubscribed',
            heading: 'You are unsubscribed',
            text: [`No more mails will be sent to you from ${title ?? 'this status page'}.`],
          }),
        );
      },
    );
  });
}

function invalidLink(kind: 'confirm' | 'unsubscribe'): string {
  return renderSubscriptionPage({
    title: 'Link not valid',
    heading: 'This link is not valid any more',
    text:
      kind === 'confirm'
        ? [
            'It was used already, or it is older than 24 hours, or it was replaced by a newer one. Nothing was changed.',
            'To subscribe, ask again on the status page.',
          ]
        : ['This subscription does not exist (any more). Nothing was changed.'],
  });
}
