import { defineProvider } from '../destination.provider.ts';
import { IncidentTool1Config } from './incident_tool1.config.ts';
import { renderIncidentTool1 } from './incident_tool1.render.ts';
import { sendIncidentTool1 } from './incident_tool1.send.ts';

/** incident.io Incidents API: creates an incident on down (idempotency_key = delivery id); never auto-resolves. */
export const incidentTool1Provider = defineProvider({
  type: 'incident_tool1',
  configSchema: IncidentTool1Config,
  render: renderIncidentTool1,
  send: sendIncidentTool1,
});
