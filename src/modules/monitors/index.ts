export {
  MonitorsService,
  blocksChildren,
  type MonitorsServiceDeps,
  type MonitorListener,
  type Page,
} from './monitor.service.ts';
export type { RelatedMonitor } from './monitor-dependencies.repository.ts';
export type { LockOrganization } from './monitor.ports.ts';
export { monitorsMigrations } from './monitors.migrations.ts';
export type { MonitorAlertLinks } from './monitor.ports.ts';
export {
  validateMonitor,
  confirmRegionsOf,
  type AssertionValidator,
  type ValidationContext,
} from './monitor.validation.ts';
export { parseHostPort } from './monitor.targets.ts';
export {
  MONITOR_TYPES,
  MONITOR_STATUSES,
  HTTP_METHODS,
  GRPC_STATUS_NAMES,
  DNS_RECORD_TYPES,
  UDP_SEND_ENCODINGS,
  SMTP_TLS_MODES,
  DATABASE_TYPES,
  DATABASE_TLS_MODES,
  WRITE_ONLY_CONFIG_KEYS,
  type DatabaseType,
  type DatabaseConfig,
  type Monitor,
  type MonitorInput,
  type MonitorPatch,
  type MonitorType,
  type MonitorStatus,
  type MonitorConfig,
  type MonitorFilter,
  type HttpConfig,
  type TlsConfig,
  type TcpConfig,
  type DnsConfig,
  type GrpcConfig,
  type HeartbeatConfig,
  type HeartbeatTarget,
  type CommonConfig,
} from './monitor.types.ts';
export { createMonitorTargetGuard, type MonitorTargetGuard } from './monitor.target-guard.ts';
export { MONITOR_SORTS, type MonitorSort } from './monitor.list.ts';
