import type { Static } from '@sinclair/typebox';
import { configObject, nonEmptyText, oneOf } from '../destination.validation.ts';

export const OncallPager2Config = configObject({
  api_key: nonEmptyText(200, { description: 'Opsgenie API key.', secret: true }),
  region: oneOf(['us', 'eu'] as const, 'The Opsgenie account region: "eu" uses the EU API host.'),
});
export type OncallPager2Config = Static<typeof OncallPager2Config>;
