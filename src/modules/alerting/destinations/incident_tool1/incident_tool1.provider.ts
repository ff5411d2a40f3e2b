import type { DestinationProvider } from '../destination.contract.ts';
import { nonEmptyString, required, validateFields } from '../destination.validation.ts';
import { renderIncidentTool1, type IncidentIoCreate } from './incident_tool1.render.ts';
import { sendIncidentTool1 } from './incident_tool1.send.ts';

/** incident.io Incidents API: creates an incident on down (idempotency_key = delivery id); never auto-resolves. */
export const incidentTool1Provider: DestinationProvider<IncidentIoCreate | null> = {
  type: 'incident_tool1',
  secretFields: ['api_key'],
  validateConfig: (config) =>
    validateFields(config, { api_key: required(nonEmptyString(500)), severity_id: required(nonEmptyString(200)) }),
  render: renderIncidentTool1,
  send: sendIncidentTool1,
};
