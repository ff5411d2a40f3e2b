export {
  TocsinMetrics,
  type OpenIncidentsCount,
  type OutboxConsumerLag,
  type RegionBacklogGauge,
  type ScrapeRead,
  type TocsinMetricsOptions,
} from './tocsin.metrics.ts';
