export { BadgesService, type BadgesServiceDeps, type BadgeMonitors } from './badge.service.ts';
export { badgesMigrations } from './badges.migrations.ts';
export { renderBadgeSvg, shieldsEndpointJson, badgeLayout, escapeXml } from './badge.svg.ts';
export { textWidth } from './badge.text-width.ts';
export { badgeLabel, formatPercent } from './badge.faces.ts';
export {
  BADGE_KINDS,
  UPTIME_BADGE_DAYS,
  RESPONSE_TIME_WINDOW_MS,
  type BadgeKind,
  type BadgeColor,
  type BadgeFace,
  type BadgeMetrics,
  type MonitorBadge,
} from './badge.types.ts';
