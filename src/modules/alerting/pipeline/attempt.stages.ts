import type { Database } from '../../../platform/db/index.ts';
import type {
  AlertEvent,
  DestinationProvider,
  DestinationRecord,
  DestinationType,
  ProviderContext,
  SendResult,
} from '../destinations/index.ts';
import { DeliveriesRepository } from '../deliveries.repository.ts';
import { DestinationsRepository } from '../destinations.repository.ts';
import { SIGNING_SECRET, type DestinationSecrets } from '../destination.secrets.ts';
import type { DeliveryRecord } from '../alerting.types.ts';
import { URL_TYPES, openWebhookUrl, type HostResolver } from '../network.guard.ts';

/**
 * One delivery attempt as it goes through the stages. Each stage adds what it learnt; a stage that knows how the
 * attempt ends sets `result`, and the stages after it do not run.
 */
export interface Attempt {
  readonly delivery: DeliveryRecord;
  /** resolve: the target as its provider sees it (secrets unsealed). */
  target?: { record: DestinationRecord; provider: DestinationProvider; signingSecret?: string };
  /** gather: the other events of the group this delivery sends (DECISIONS §17), in the order they happened. */
  groupEvents?: AlertEvent[];
  /** render: the provider's request. */
  request?: unknown;
  /** guard: a fetch pinned to the webhook URL's vetted address (sends connect nowhere else). */
  fetch?: typeof fetch;
  result?: SendResult;
}

/** The one signature of every delivery stage. */
export type AttemptStage = (attempt: Attempt) => Promise<Attempt>;

export interface AttemptStageDeps {
  database: Database;
  registry: ReadonlyMap<DestinationType, DestinationProvider>;
  secrets: DestinationSecrets;
  providerContext: ProviderContext;
  allowPrivateTargets: boolean;
  resolveHost?: HostResolver;
}

const ended = (attempt: Attempt, result: SendResult): Attempt => ({ ...attempt, result });

/** resolve: load the destination (or the member's address) and unseal its secrets. */
export function resolveStage(deps: AttemptStageDeps): AttemptStage {
  return async (attempt) => {
    const { target } = attempt.delivery;
    const emailProvider = deps.registry.get('email');
    if (target.kind === 'member_email') {
      if (!emailProvider) return ended(attempt, { outcome: 'destination_broken', reason: 'no email provider' });
      const record: DestinationRecord = {
        id: `member:${target.userId}`,
        name: target.email,
        type: 'email',
        config: { address: target.email },
        state: {},
      };
      return { ...attempt, target: { record, provider: emailProvider } };
    }
    let destination;
    try {
      destination = await new DestinationsRepository(deps.database).findAnywhere(target.destinationId);
    } catch (err) {
      return ended(attempt, { outcome: 'retry', reason: `could not load the destination: ${(err as Error).message}` });
    }
    if (!destination) return ended(attempt, { outcome: 'destination_broken', reason: 'the destination was deleted' });
    const provider = deps.registry.get(destination.type);
    if (!provider)
      return ended(attempt, { outcome: 'destination_broken', reason: `unknown destination type ${destination.type}` });
    const { [SIGNING_SECRET]: signingSecret, ...secret } = deps.secrets.open(destination.id, destination.sealedSecrets);
    // Checked once here, against the schema it was saved with: the provider then uses its fields as they are typed.
    const parsed = provider.parseConfig({ ...destination.config, ...secret });
    if (!parsed.ok) {
      const problems = parsed.issues.map((i) => `${i.field} ${i.issue}`).join('; ');
      return ended(attempt, {
        outcome: 'destination_broken',
        reason: `the destination's config is not valid: ${problems}`,
      });
    }
    const record: DestinationRecord = {
      id: destination.id,
      name: destination.name,
      type: destination.type,
      config: parsed.config,
      state: destination.state,
    };
    if (destination.payloadFormat) record.payload_format = destination.payloadFormat;
    return { ...attempt, target: { record, provider, ...(signingSecret && { signingSecret }) } };
  };
}

/**
 * gather: a group's first delivery reads the deliveries waiting in its group (joined at fan-out until it was
 * claimed; none join after). Nothing for other deliveries.
 */
export function gatherGroupStage(deps: AttemptStageDeps): AttemptStage {
  return async (attempt) => {
    const { delivery } = attempt;
    if (delivery.groupId !== delivery.id) return attempt;
    try {
      const members = await new DeliveriesRepository(deps.database).groupMembers(delivery.id);
      return members.length === 0 ? attempt : { ...attempt, groupEvents: members.map((m) => m.event) };
    } catch (err) {
      return ended(attempt, { outcome: 'retry', reason: `could not read the group: ${(err as Error).message}` });
    }
  };
}

/** render: the provider's request for this event, or for its group (pure; re-rendered on every attempt). */
export function renderStage(deps: AttemptStageDeps): AttemptStage {
  return async (attempt) => {
    const { record, provider } = attempt.target!;
    const ctx = deps.providerContext;
    try {
      const ref = { id: attempt.delivery.id, attempt: attempt.delivery.attempts };
      const renderCtx = { publicUrl: ctx.publicUrl, now: () => ctx.now() };
      const request =
        attempt.groupEvents && provider.renderGroup
          ? provider.renderGroup([attempt.delivery.event, ...attempt.groupEvents], record, ref, renderCtx)
          : provider.render(attempt.delivery.event, record, ref, renderCtx);
      return { ...attempt, request };
    } catch (err) {
      return ended(attempt, {
        outcome: 'payload_rejected',
        reason: `could not render the message: ${(err as Error).message}`,
      });
    }
  };
}

/** guard: a webhook URL must not lead into a private network (unless allowed), checked again at every send. */
export function guardStage(deps: AttemptStageDeps): AttemptStage {
  return async (attempt) => {
    const { record } = attempt.target!;
    if (!URL_TYPES.includes(record.type)) return attempt;
    const url = record.config.url;
    const opened = await openWebhookUrl(typeof url === 'string' ? url : '', deps.allowPrivateTargets, deps.resolveHost);
    if (opened.issue !== null)
      return ended(attempt, { outcome: 'destination_broken', reason: `the webhook URL ${opened.issue}` });
    return { ...attempt, fetch: opened.fetch };
  };
}

/** send: hand the request to the provider; anything it throws is a retry. */
export function sendStage(deps: AttemptStageDeps): AttemptStage {
  return async (attempt) => {
    const { record, provider, signingSecret } = attempt.target!;
    const ctx = attempt.fetch ? { ...deps.providerContext, fetch: attempt.fetch } : deps.providerContext;
    const ref = { id: attempt.delivery.id, attempt: attempt.delivery.attempts };
    try {
      // The registry erased each provider's request type; render's output goes back to the same provider.
      const result = await provider.send(
        attempt.request as never,
        record,
        ref,
        signingSecret ? { ...ctx, signingSecret } : ctx,
      );
      return ended(attempt, result);
    } catch (err) {
      return ended(attempt, { outcome: 'retry', reason: `send failed: ${(err as Error).message}` });
    }
  };
}

/** Runs the stages in order until one ends the attempt. */
export async function runStages(stages: readonly AttemptStage[], start: Attempt): Promise<SendResult> {
  return (await runAttempt(stages, start)).result;
}

/** The same, returning the whole attempt (what the stages learnt, e.g. the destination's type) with its result. */
export async function runAttempt(
  stages: readonly AttemptStage[],
  start: Attempt,
): Promise<Attempt & { result: SendResult }> {
  let attempt = start;
  for (const stage of stages) {
    if (attempt.result) break;
    attempt = await stage(attempt);
  }
  return {
    ...attempt,
    result: attempt.result ?? { outcome: 'retry', reason: 'the delivery stages ended without a result' },
  };
}
