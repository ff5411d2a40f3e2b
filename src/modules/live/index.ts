export { LiveHub, type LiveHubOptions, type CatchUp } from './live.hub.ts';
export {
  LIVE_EVENT_TYPES,
  formatPosition,
  parsePosition,
  type LiveEvent,
  type LiveEventType,
  type LivePosition,
  type LiveSources,
  type LiveSubscriber,
} from './live.types.ts';
