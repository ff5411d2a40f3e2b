export {
  TocsinMetrics,
  type OpenIncidentsCount,
  type OutboxConsumerLag,
  type ScrapeRead,
  type TocsinMetricsOptions,
} from './tocsin.metrics.ts';
