export { EventsService } from './events.service.ts';
export { eventsMigrations } from './events.migrations.ts';
export {
  EVENT_TYPES,
  DEFAULT_DESTINATION_EVENTS,
  type EventType,
  type DomainEvent,
  type NewDomainEvent,
} from './event.types.ts';
