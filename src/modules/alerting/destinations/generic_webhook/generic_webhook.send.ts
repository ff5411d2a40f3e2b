import type { Delivery, DestinationRecord, ProviderContext, SendResult } from '../destination.contract.ts';
import type { GenericWebhookConfig } from './generic_webhook.config.ts';
import { classifyHttpStatus, httpAttempt, retry } from '../destination.http.ts';
import type { GenericWebhookRequest } from './generic_webhook.render.ts';
import { signWebhook } from './generic_webhook.signing.ts';

/** 2xx ok; 408/429/5xx/network retry (Retry-After seconds or HTTP date); 410 destination_broken; 3xx and other 4xx fail. */
export async function sendGenericWebhook(
  request: GenericWebhookRequest,
  destination: DestinationRecord<GenericWebhookConfig>,
  delivery: Delivery,
  ctx: ProviderContext,
): Promise<SendResult> {
  if (!ctx.signingSecret)
    return { outcome: 'destination_broken', reason: 'the destination has no signing secret; recreate it' };
  const signatures = signWebhook({
    secret: ctx.signingSecret,
    id: delivery.id,
    timestamp: Math.floor(ctx.now() / 1000),
    body: request.body,
  });
  const res = await httpAttempt(ctx, {
    method: 'POST',
    url: destination.config.url,
    headers: {
      'Content-Type': 'application/json',
      'User-Agent': ctx.userAgent,
      'X-Service-Event': request.event,
      'X-Service-Delivery': delivery.id,
      ...signatures,
    },
    body: request.body,
  });
  if (res.kind === 'failed') return retry(res.reason);
  if (res.status >= 200 && res.status < 300) return { outcome: 'ok', provider_reference: `HTTP ${res.status}` };
  return classifyHttpStatus(res.status, res.headers, ctx.now());
}
