export { IncidentsService } from './incident.service.ts';
export type { MonitorTransition } from './incident.types.ts';
