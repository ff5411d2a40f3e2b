import { Type } from '@sinclair/typebox';
import { ROLES } from '../../../modules/orgs/index.ts';
import { Timestamp } from '../../schemas/common.schemas.ts';

const lit = <T extends string>(values: readonly T[]) => Type.Union(values.map((v) => Type.Literal(v)));

export const Email = Type.String({ minLength: 3, maxLength: 254, description: 'An email address.' });
export const Password = Type.String({
  minLength: 1,
  maxLength: 200,
  description: 'At least 10 characters for a new password.',
});
const OneTimeToken = Type.String({ minLength: 1, maxLength: 200, description: 'The token of the mailed link.' });

export const SessionRecord = Type.Object(
  {
    user: Type.Object({ id: Type.String(), email: Type.String(), name: Type.Union([Type.String(), Type.Null()]) }),
    organization: Type.Object({ id: Type.String(), name: Type.String(), plan: Type.String() }),
    role: lit(ROLES),
    csrf_token: Type.String({
      description: 'Send it as header X-CSRF-Token with every POST, PUT, PATCH and DELETE made in this session.',
    }),
  },
  {
    $id: 'Session',
    title: 'Session',
    description: 'The signed-in person, their organization and role; the session itself is the tocsin_session cookie.',
  },
);

export const SessionListRecord = Type.Object(
  {
    data: Type.Array(
      Type.Object({
        id: Type.String(),
        created_at: Timestamp(),
        last_seen_at: Timestamp('The latest request of the session (recorded at most once a minute).'),
        user_agent: Type.Union([Type.String(), Type.Null()]),
        ip: Type.Union([Type.String(), Type.Null()]),
        current: Type.Boolean({ description: 'The session of this request.' }),
      }),
    ),
  },
  { $id: 'SessionList', title: 'SessionList' },
);

export const SetupStatus = Type.Object({
  needed: Type.Boolean({ description: 'True while no organization exists yet (a fresh install).' }),
});

export const SetupBody = Type.Object({
  organization_name: Type.String({ minLength: 1, maxLength: 200 }),
  name: Type.String({ minLength: 1, maxLength: 200, description: "The owner's name." }),
  email: Email,
  password: Password,
});

export const SignInBody = Type.Object({ email: Email, password: Password });

export const PasswordResetBody = Type.Object({ email: Email });
export const PasswordResetConfirmBody = Type.Object({ token: OneTimeToken, password: Password });

export const InvitationLookupQuery = Type.Object({ token: OneTimeToken });
export const InvitationPreviewRecord = Type.Object(
  {
    organization: Type.Object({ name: Type.String() }),
    email: Type.String(),
    role: lit(ROLES),
    existing_user: Type.Boolean({
      description: 'True when the address already has a user: accepting then needs their password (no name).',
    }),
  },
  { $id: 'InvitationPreview', title: 'InvitationPreview' },
);
export const InvitationAcceptBody = Type.Object({
  token: OneTimeToken,
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'For a new user.' })),
  password: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 200,
      description: "A new user's password (required), or the existing user's password (required, checked).",
    }),
  ),
});

export const SessionIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });

/** Documented refusals of the sign-in operations (describeRoute adds the ones every route has). */
const REFUSALS: Record<number, string> = {
  400: 'invalid_token: the link is unknown, already used, replaced by a newer one or expired.',
  401: 'invalid_credentials: the email address or the password is wrong (the same answer for both).',
  403: 'csrf_failed: the request came from another origin (Origin header).',
  409: 'already_set_up (first run) or conflict.',
  429: 'rate_limited: too many failed sign-ins for this account or from this address; wait Retry-After seconds.',
};

export function refusals(...statuses: number[]): Record<number, { description: string; $ref: string }> {
  return Object.fromEntries(statuses.map((s) => [s, { description: REFUSALS[s]!, $ref: 'ErrorEnvelope#' }]));
}
