import { defineProvider } from '../destination.provider.ts';
import { IncidentTool2Config } from './incident_tool2.config.ts';
import { renderIncidentTool2 } from './incident_tool2.render.ts';
import { sendIncidentTool2 } from './incident_tool2.send.ts';

/** Rootly Incidents API (JSON:API): creates an incident on down; never auto-resolves. */
export const incidentTool2Provider = defineProvider({
  type: 'incident_tool2',
  configSchema: IncidentTool2Config,
  render: renderIncidentTool2,
  send: sendIncidentTool2,
});
