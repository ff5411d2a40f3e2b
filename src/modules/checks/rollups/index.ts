/** Public surface of hourly rollups and history. */
export {
  RollupsService,
  MAX_RANGE_MS,
  type RollupsServiceDeps,
  type HistoryQuery,
  type HistoryBucket,
  type TotalBucket,
  type HistoryResolution,
  type HistoryMonitorLookup,
  type ExecutionSeriesSource,
  type DailyUptime,
} from './rollups.service.ts';
export { RollupsRepository, type RollupKey } from './rollups.repository.ts';
export type { RollupRow, RollupDayRow, RollupTable } from './rollups.tables.ts';
export { DayPrefixesCompactor, addLateToDayPrefixes, type DayPrefixesCompactorDeps } from './day-prefixes.compactor.ts';
export { LatencySketch, DecodedSketches, SKETCH_RELATIVE_ACCURACY } from './latency.sketch.ts';
export {
  foldBatch,
  hourOf,
  rollupId,
  seriesId,
  HOUR_MS,
  DAY_MS,
  type RollupInput,
  type SeriesState,
  type RollupDelta,
} from './rollups.compute.ts';
export { rollupsMigrations } from './rollups.migrations.ts';
