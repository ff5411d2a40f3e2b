export {
  StatusPagesService,
  publicStatusOf,
  outageLevel,
  PAST_INCIDENTS_MAX,
  PAGE_PASSWORD_THROTTLE,
  SLUG_PATTERN,
  UPTIME_DAYS,
  type StatusPagesServiceDeps,
  type StatusPageMonitors,
  type StatusPageIncidents,
} from './status-page.service.ts';
export { statusPagesMigrations } from './status-pages.migrations.ts';
export { noticesMigrations } from './notices.migrations.ts';
export {
  NoticesService,
  PAST_NOTICE_DAYS,
  PAST_NOTICES_MAX,
  type NoticesServiceDeps,
  type NoticeIncidents,
} from './notice.service.ts';
export { NoticeDrafts, draftBody, type NoticeDraftsDeps } from './notice.drafts.ts';
export {
  NOTICE_KINDS,
  NOTICE_IMPACTS,
  NOTICE_STATUSES,
  type Notice,
  type NoticeKind,
  type NoticeImpact,
  type NoticeStatus,
  type NoticeUpdate,
  type NoticeWithUpdates,
  type NoticeCreateInput,
  type NoticePatchInput,
  type NoticeUpdateInput,
  type NoticePublication,
  type NoticeListener,
  type PublicNoticeView,
} from './notice.types.ts';
export { pageMonitorIds, worstStatus, normaliseDomain, MONITORS_MAX } from './status-page.layout.ts';
export { pageSessionCookieName, PAGE_SESSION_MS } from './status-page.access.ts';
export type {
  StatusPage,
  StatusPageCreateInput,
  StatusPageInput,
  UptimeSource,
  AvailabilitySource,
  PublicDay,
  OutageLevel,
  PublicSlaView,
  DayUptime,
  PublicMonitorStatus,
  OverallStatus,
  PublicMonitorView,
  PublicIncidentView,
  PublicStatusView,
  PublicGroupView,
  PublicMaintenanceView,
  StatusPageAccess,
  StatusPageGroup,
  StatusPageMaintenance,
} from './status-page.types.ts';
export {
  SubscribersService,
  isSubscribableEmail,
  CONFIRM_LINK_MS,
  SUBSCRIBE_RATE_LIMIT,
  type SubscribersServiceDeps,
  type CreatedWebhookSubscriber,
} from './subscriber.service.ts';
export { SubscriberSender, type SubscriberWebhooks, type SubscriberSenderDeps } from './subscriber-delivery.sender.ts';
export {
  SubscriberDeliveriesRole,
  type SubscriberDeliveriesDeps,
  type SubscriberOutbox,
} from './subscriber-deliveries.role.ts';
export type { Subscriber, SubscriberKind, NoticePublishedListener } from './subscriber.types.ts';
