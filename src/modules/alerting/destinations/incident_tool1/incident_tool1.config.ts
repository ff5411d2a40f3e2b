import type { Static } from '@sinclair/typebox';
import { configObject, nonEmptyText } from '../destination.validation.ts';

export const IncidentTool1Config = configObject({
  api_key: nonEmptyText(500, { description: 'incident.io API key.', secret: true }),
  severity_id: nonEmptyText(200, { description: 'incident.io severity id.' }),
});
export type IncidentTool1Config = Static<typeof IncidentTool1Config>;
