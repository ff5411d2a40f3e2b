import { Type } from '@sinclair/typebox';
import { UPTIME_BADGE_DAYS } from '../../../modules/badges/index.ts';
import { Timestamp } from '../../schemas/common.schemas.ts';

/** The files of a monitor badge: /badge/{token}/{file}. */
export const BADGE_FILES = [
  'status.svg',
  'status.json',
  'uptime.svg',
  'uptime.json',
  'response-time.svg',
  'response-time.json',
] as const;

export const MonitorBadgeRecord = Type.Object(
  {
    token: Type.String({ description: 'The capability in the public URLs (192 random bits). Rotate with POST.' }),
    monitor_id: Type.String(),
    created_at: Timestamp(),
    urls: Type.Object(
      {
        status_svg: Type.String({ format: 'uri' }),
        status_json: Type.String({ format: 'uri' }),
        uptime_svg: Type.String({ format: 'uri' }),
        uptime_json: Type.String({ format: 'uri' }),
        response_time_svg: Type.String({ format: 'uri' }),
        response_time_json: Type.String({ format: 'uri' }),
      },
      { description: 'Public badge URLs: SVG, and JSON in the shields.io endpoint shape.' },
    ),
  },
  { $id: 'MonitorBadge', title: 'MonitorBadge' },
);

export const BadgeFileParams = Type.Object({
  token: Type.String({ minLength: 1, maxLength: 128 }),
  file: Type.String({
    minLength: 1,
    maxLength: 32,
    description: `One of ${BADGE_FILES.join(', ')}; any other name is 404.`,
  }),
});

export const BadgeFileQuery = Type.Object({
  days: Type.Optional(
    Type.Integer({
      minimum: UPTIME_BADGE_DAYS.min,
      maximum: UPTIME_BADGE_DAYS.max,
      description: `uptime badges: the last N × 24 h, ${UPTIME_BADGE_DAYS.min}..${UPTIME_BADGE_DAYS.max} (default ${UPTIME_BADGE_DAYS.default}); out of range, or given to another badge, is 422.`,
    }),
  ),
});

/** shields.io's endpoint shape (https://shields.io/badges/endpoint-badge). */
export const ShieldsEndpoint = Type.Object(
  {
    schemaVersion: Type.Literal(1),
    label: Type.String(),
    message: Type.String({ minLength: 1 }),
    color: Type.String(),
    isError: Type.Optional(Type.Boolean()),
  },
  { $id: 'ShieldsEndpointBadge', title: 'ShieldsEndpointBadge' },
);
