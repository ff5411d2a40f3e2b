import type { Static } from '@sinclair/typebox';
import { configObject, nonEmptyText } from '../destination.validation.ts';

export const IncidentTool2Config = configObject({
  api_key: nonEmptyText(500, { description: 'Rootly API key.', secret: true }),
});
export type IncidentTool2Config = Static<typeof IncidentTool2Config>;
