import type { Static } from '@sinclair/typebox';
import { configObject, matching } from '../destination.validation.ts';

export const OncallPager1Config = configObject({
  integration_key: matching('^[A-Za-z0-9]{32}$', 'a 32-character Events API v2 integration key', {
    description: 'PagerDuty Events API v2 integration key (32 characters).',
    secret: true,
  }),
});
export type OncallPager1Config = Static<typeof OncallPager1Config>;
