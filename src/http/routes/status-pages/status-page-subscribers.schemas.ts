import { Type } from '@sinclair/typebox';
import { Nullable, PageQuery, Timestamp, ListOf } from '../../schemas/common.schemas.ts';

export const SubscriberRecord = Type.Object(
  {
    id: Type.String({ description: 'sub_…' }),
    type: Type.Union([Type.Literal('email'), Type.Literal('webhook')]),
    email: Nullable(Type.String({ description: 'The address (lower-cased); null for a webhook.' })),
    url: Nullable(Type.String({ description: 'The webhook URL; null for an email subscriber.' })),
    status: Type.Union([Type.Literal('pending'), Type.Literal('confirmed')], {
      description: 'pending: an email subscriber who has not followed the confirmation link (gets nothing yet).',
    }),
    created_at: Timestamp(),
    confirmed_at: Nullable(Timestamp()),
  },
  { $id: 'StatusPageSubscriber', title: 'StatusPageSubscriber' },
);

export const SubscriberList = ListOf(Type.Ref(SubscriberRecord), 'StatusPageSubscriberList');
export const SubscriberListQuery = Type.Object({ ...PageQuery });

export const CreatedWebhookSubscriber = Type.Object(
  {
    subscriber: Type.Ref(SubscriberRecord),
    signing_secret: Type.String({
      description:
        'Shown once: the secret of the X-Service-Signature and Standard Webhooks signatures (DECISIONS §7) of every post.',
    }),
  },
  { $id: 'CreatedStatusPageWebhookSubscriber', title: 'CreatedStatusPageWebhookSubscriber' },
);

export const WebhookSubscriberBody = Type.Object(
  {
    url: Type.String({
      minLength: 1,
      maxLength: 2048,
      'x-issue': 'must be an http or https URL',
      description:
        'Receives a signed JSON post for every published notice, notice update and announced, started or ended maintenance of the page.',
    }),
  },
  { description: 'Unknown fields are rejected.' },
);

export const SubscribeBody = Type.Object(
  {
    email: Type.String({
      maxLength: 254,
      'x-issue': 'must be an email address such as name@example.com',
      description: 'Gets a mail with a confirmation link (valid 24 hours); nothing else until it is followed.',
    }),
  },
  { description: 'JSON, or a form post (application/x-www-form-urlencoded) from the public page.' },
);

export const SubscribeAccepted = Type.Object({
  status: Type.Literal('pending'),
  message: Type.String(),
});

export const SubscriberParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 64 }),
  sid: Type.String({ minLength: 1, maxLength: 64 }),
});

export const SlugParams = Type.Object({ slug: Type.String({ minLength: 1, maxLength: 80 }) });
export const TokenQuery = Type.Object({
  token: Type.String({ minLength: 1, maxLength: 128, description: 'The token of the link in the mail.' }),
});
