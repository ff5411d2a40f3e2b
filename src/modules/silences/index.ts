export {
  SilencesService,
  SILENCEABLE_EVENTS,
  SILENCE_COMMENT_MAX,
  SILENCE_MATCHER_MAX,
  type SilenceInput,
  type MuteInput,
  type DestinationIdsIn,
  type SilencesServiceDeps,
} from './silence.service.ts';
export { silencesMigrations } from './silences.migrations.ts';
export { silenceOf } from './silence.matching.ts';
export type { Silence, SilenceMatchers, NotificationSubject } from './silence.types.ts';
