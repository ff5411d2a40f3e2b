import type { DestinationProvider } from '../destination.contract.ts';
import { nonEmptyString, required, validateFields } from '../destination.validation.ts';
import { renderIncidentTool2, type RootlyCreate } from './incident_tool2.render.ts';
import { sendIncidentTool2 } from './incident_tool2.send.ts';

/** Rootly Incidents API (JSON:API): creates an incident on down; never auto-resolves. */
export const incidentTool2Provider: DestinationProvider<RootlyCreate | null> = {
  type: 'incident_tool2',
  secretFields: ['api_key'],
  validateConfig: (config) => validateFields(config, { api_key: required(nonEmptyString(500)) }),
  render: renderIncidentTool2,
  send: sendIncidentTool2,
};
