export { MonitorPauseFeed } from './monitor-pause.feed.ts';
export { LiveHub, type LiveHubOptions, type CatchUp } from './live.hub.ts';
export {
  LIVE_EVENT_TYPES,
  coveredBy,
  formatPosition,
  laterPosition,
  parsePosition,
  type LiveEvent,
  type LiveEventType,
  type LivePosition,
  type LiveSources,
  type LiveSubscriber,
} from './live.types.ts';
