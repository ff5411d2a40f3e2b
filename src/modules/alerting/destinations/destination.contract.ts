/**
 * The contract between the alerting pipeline and the destination providers.
 *
 * A provider turns an `AlertEvent` into the request its product expects (`render`, pure, no secrets in the
 * output) and delivers it (`send`), mapping every possible answer onto one of five outcomes
 * (destinations.md §0.1): ok, retry, payload_rejected, destination_broken, reauthorize.
 * Providers never retry, sleep or persist anything themselves: the pipeline owns backoff, leases and storage.
 * The pipeline re-renders on every attempt (render is cheap and pure), so a `state_patch` returned by one
 * attempt (e.g. a migrated Telegram chat id) takes effect on the next.
 */
import type { TObject } from '@sinclair/typebox';
import type { Mailer } from '../../../platform/mail/index.ts';
import { EVENT_TYPES as DOMAIN_EVENT_TYPES } from '../../events/index.ts';

export const DESTINATION_TYPES = [
  'chatapp1_channel',
  'chatapp1_webhook',
  'chatapp2_webhook',
  'chatapp3_webhook',
  'chatapp4_bot',
  'oncall_pager1',
  'oncall_pager2',
  'incident_tool1',
  'incident_tool2',
  'email',
  'generic_webhook',
] as const;
export type DestinationType = (typeof DESTINATION_TYPES)[number];

/** The outbox's event types, plus `test` (a synthetic event sent by POST /webhooks/{id}/test). */
export const EVENT_TYPES = [...DOMAIN_EVENT_TYPES, 'test'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** What happened, independent of any destination. */
export interface AlertEvent {
  /** `evt_…` */
  id: string;
  type: EventType;
  /** Epoch ms. */
  occurred_at: number;
  organization: { id: string; name: string };
  monitor: { id: string; name: string; target: string; type: string } | null;
  incident: { id: string; number: number; url: string; title: string; opened_at: number } | null;
  /** Failure reason, e.g. "HTTP 503 (expected 200)". */
  cause: string | null;
  /** When the monitor went down (epoch ms). */
  since: number | null;
  /** Event-specific: days_to_expiry, grade, previous_grade, latency_ms, threshold_ms, summary, report_url, … */
  data: Record<string, unknown>;
}

/** `C`: the type's config as its schema describes it (providers see their own; the pipeline an erased record). */
export interface DestinationRecord<C = Record<string, unknown>> {
  id: string;
  name: string;
  type: DestinationType;
  /** Checked against the type's schema when read back, secrets already unsealed. */
  config: C;
  payload_format?: 'standard' | 'legacy';
  /** Provider-owned persistent state, e.g. a migrated Telegram chat id. Merge `state_patch` into it. */
  state: Record<string, unknown>;
}

export interface Delivery {
  /** `dlv_…`, stable across retries of one delivery. */
  id: string;
  /** 1 for the first attempt. */
  attempt: number;
}

export type SendResult =
  | {
      outcome: 'ok';
      state_patch?: Record<string, unknown>;
      provider_reference?: string;
      /** The provider finished but nothing reached the recipient (email without SMTP): what happened instead. */
      not_sent?: string;
    }
  | { outcome: 'retry'; reason: string; retry_after_ms?: number; state_patch?: Record<string, unknown> }
  | { outcome: 'payload_rejected'; reason: string }
  | { outcome: 'destination_broken'; reason: string }
  | { outcome: 'reauthorize'; reason: string };

export type SendOutcome = SendResult['outcome'];

export type { Mailer, MailAttachment, MailMessage, MailResult } from '../../../platform/mail/index.ts';

/** Where the bytes of stored report files are read from when a mail attaches them. */
export interface ReportFileSource {
  /** The file's bytes, or null when it no longer exists (removed after its links expired). */
  read(fileId: string): Promise<Buffer | null>;
}

export interface ProviderContext {
  /** `providers.<type>.base_url` (or `base_url_eu` when region is 'eu') with the real vendor default; no trailing slash. */
  baseUrl(type: DestinationType, region?: string): string;
  fetch: typeof fetch;
  /** Public URL of this Tocsin installation (links in messages). */
  publicUrl: string;
  /** `Tocsin/<version>` */
  userAgent: string;
  now(): number;
  mailer?: Mailer;
  /** Stored report files that mails attach (scheduled reports). */
  reportFiles?: ReportFileSource;
  /** generic_webhook only: the destination's unsealed signing secret. */
  signingSecret?: string;
  /** Per-request timeout; a timeout is a `retry`. */
  timeoutMs: number;
}

export type RenderContext = Pick<ProviderContext, 'publicUrl' | 'now'>;

export interface ConfigIssue {
  /** e.g. "config.url" */
  field: string;
  issue: string;
}

export type ParsedConfig<C> = { ok: true; config: C } | { ok: false; issues: ConfigIssue[] };

/**
 * `C` is `Static<typeof configSchema>`: render and send receive a config that `parseConfig` accepted (at write time
 * and again when the destination is read back for a delivery), so they never check or convert a field themselves.
 */
export interface DestinationProvider<Req = unknown, C = Record<string, unknown>> {
  type: DestinationType;
  /** The type's config (TypeBox): validates it and documents it in the API (one branch per type). */
  configSchema: TObject;
  /** Config fields sealed at rest and masked on read: those the schema marks `writeOnly`. */
  secretFields: string[];
  /** Strict: unknown keys are rejected. Empty array = valid. */
  validateConfig(config: unknown): ConfigIssue[];
  /** The config typed as the schema says, or its issues (`config.<field>`). */
  parseConfig(config: unknown): ParsedConfig<C>;
  /** PURE: what will be sent (never contains secrets; `send` adds credentials). */
  render(event: AlertEvent, destination: DestinationRecord<C>, delivery: Delivery, ctx: RenderContext): Req;
  /**
   * PURE: one message for several events (DECISIONS §17 grouping; `events` in the order they happened, at least
   * two). A provider without it keeps one alert per event (the pager types): grouping does not apply to it.
   */
  renderGroup?(
    events: readonly AlertEvent[],
    destination: DestinationRecord<C>,
    delivery: Delivery,
    ctx: RenderContext,
  ): Req;
  send(request: Req, destination: DestinationRecord<C>, delivery: Delivery, ctx: ProviderContext): Promise<SendResult>;
}
