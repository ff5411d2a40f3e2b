export { EventsService } from './events.service.ts';
export { eventsMigrations } from './events.migrations.ts';
export {
  EVENT_TYPES,
  FEED_EVENT_TYPES,
  DEFAULT_DESTINATION_EVENTS,
  isFeedEvent,
  type EventType,
  type DomainEventType,
  type DomainEvent,
  type NewDomainEvent,
} from './event.types.ts';
