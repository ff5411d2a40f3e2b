import { Agent, fetch as undiciFetch } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DeliveryRecord } from './alerting.types.ts';
import { createProviderRegistry, type DestinationProvider } from './destinations/index.ts';
import { networkReason } from './destinations/destination.http.ts';
import { privateTargetIssue } from './network.guard.ts';
import { guardStage, runStages, sendStage, type Attempt, type AttemptStageDeps } from './pipeline/attempt.stages.ts';
import { PrivateTargetError, createDnsServerResolver, type HostResolver } from '../../platform/net/index.ts';
import { stopConnectionsAfterLookup, type ConnectionRecorder } from '../../../test/support/connections.ts';
import { startDnsServer, type DnsServer } from '../../../test/support/targets/index.ts';
import { T0, alertEvent, delivery, destinationRecord, providerContext } from '../../../test/fakes/alert-events.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../../test/fakes/index.ts';

const SECRET = 'whsec_test_rebinding';
let dns: DnsServer;
let resolver: HostResolver;
let receiver: WebhookReceiver;
let recorder: ConnectionRecorder | undefined;
const provider = createProviderRegistry().get('generic_webhook') as DestinationProvider;

function stagesDeps(allowPrivateTargets: boolean): AttemptStageDeps {
  return {
    // The guard and send stages read neither the database nor the secrets (resolve does, and is not run here).
    database: undefined as never,
    secrets: undefined as never,
    registry: createProviderRegistry(),
    providerContext: providerContext({ timeoutMs: 1000 }),
    allowPrivateTargets,
    resolveHost: resolver,
  };
}

/** One generic webhook delivery to `url`, through the pipeline's guard and send stages. */
function sendTo(url: string, allowPrivateTargets: boolean) {
  const event = alertEvent('down');
  const record = destinationRecord('generic_webhook', { url });
  const ctx = providerContext();
  const request = provider.render(event, record, delivery(), ctx);
  const attempt: Attempt = {
    delivery: { id: 'dlv_rebind', attempts: 1, event } as DeliveryRecord,
    target: { record, provider, signingSecret: SECRET },
    request,
  };
  const deps = stagesDeps(allowPrivateTargets);
  return runStages([guardStage(deps), sendStage(deps)], attempt);
}

beforeAll(async () => {
  dns = await startDnsServer({});
  resolver = createDnsServerResolver([dns.resolver], 1000);
  receiver = await startWebhookReceiver({ secret: SECRET, now: () => T0 + 14 * 60_000 });
});
afterAll(async () => {
  await Promise.all([dns.close(), receiver.close()]);
});
afterEach(() => {
  recorder?.stop();
  recorder = undefined;
  receiver.reset();
});

const hookUrl = (host: string): string => receiver.webhookUrl.replace('127.0.0.1', host);

describe('webhook sends resolve once and connect only to the vetted address (DNS rebinding)', () => {
  it('a name answering a public address, then 127.0.0.1, never reaches the loopback receiver', async () => {
    dns.answerInTurn('rebind.hook.test', 'A', [['8.8.8.8'], ['127.0.0.1']]);
    recorder = stopConnectionsAfterLookup();
    const result = await sendTo(hookUrl('rebind.hook.test'), false);
    expect(result.outcome).toBe('retry');
    expect(recorder.addresses).toEqual(['8.8.8.8']);
    expect(receiver.requests).toHaveLength(0);
  });

  it('without the pin (vet, then resolve again to connect) the same DNS would deliver to loopback', async () => {
    dns.answerInTurn('control.hook.test', 'A', [['8.8.8.8'], ['127.0.0.1']]);
    const url = hookUrl('control.hook.test');
    expect(await privateTargetIssue(url, false, resolver)).toBeNull();
    // What the old sender did: vet with one lookup, then let the connection look the name up again.
    const lookupAgain = (host: string, _options: unknown, cb: (e: Error | null, all: unknown[]) => void): void =>
      void resolver(host).then((all) => cb(null, all));
    const dispatcher = new Agent({ connect: { lookup: lookupAgain as never } });
    await undiciFetch(url, { method: 'POST', body: '{}', dispatcher });
    await dispatcher.close();
    expect(receiver.requests).toHaveLength(1);
  });

  it('a name whose first answer is private is destination_broken, and nothing is sent', async () => {
    dns.answerInTurn('private.hook.test', 'A', [['10.0.0.7']]);
    recorder = stopConnectionsAfterLookup();
    const result = await sendTo(hookUrl('private.hook.test'), false);
    expect(result).toMatchObject({
      outcome: 'destination_broken',
      reason: expect.stringContaining('private.hook.test resolves to 10.0.0.7, a private-use address'),
    });
    expect(recorder.addresses).toEqual([]);
  });

  it.each(['http://2130706433:9/', 'http://[::ffff:7f00:1]:9/', 'http://[64:ff9b::a00:1]/'])(
    'the literal %s is destination_broken',
    async (url) => {
      expect((await sendTo(url, false)).outcome).toBe('destination_broken');
    },
  );

  it('a public name is delivered through the pinned address (Host and signature intact)', async () => {
    dns.answerInTurn('public.hook.test', 'A', [['8.8.8.8']]);
    recorder = stopConnectionsAfterLookup();
    await sendTo(hookUrl('public.hook.test'), false);
    expect(recorder.addresses).toEqual(['8.8.8.8']);
  });

  it('with private targets allowed, a loopback receiver is delivered to', async () => {
    const result = await sendTo(receiver.webhookUrl, true);
    expect(result.outcome).toBe('ok');
    expect(receiver.requests).toHaveLength(1);
    expect(receiver.verified()).toHaveLength(1);
  });

  it('with private targets allowed, a send is still pinned to the first answer (127.0.0.1, not the later 127.0.0.2)', async () => {
    // The receiver listens on 127.0.0.1 only: a second lookup by the connection would be refused at 127.0.0.2.
    dns.answerInTurn('pin.hook.test', 'A', [['127.0.0.1'], ['127.0.0.2']]);
    const result = await sendTo(hookUrl('pin.hook.test'), true);
    expect(result.outcome).toBe('ok');
    expect(receiver.verified()).toHaveLength(1);
  });

  it('a connection refused by the guard reads as such in the attempt reason (no URL in it)', () => {
    const refused = new PrivateTargetError('hook.test resolves to 127.0.0.1, a loopback address (127.0.0.0/8)');
    const reason = networkReason(new TypeError('fetch failed', { cause: refused }), 1000);
    expect(reason).toBe('refused: hook.test resolves to 127.0.0.1, a loopback address (127.0.0.0/8)');
  });
});
