import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, ManualClock, type TestApp, type TestOrg } from '../support/app.ts';
import { testDialects } from '../support/databases.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../fakes/index.ts';
import { api, createMonitor, recordEvent, WEBHOOKS } from './helpers.ts';

/** The send time-out of these tests: a destination that never answers holds its attempt this long. */
const TIMEOUT_MS = 3_000;

/** An SMTP server that accepts connections and never says a word (not even its greeting). */
async function startSilentSmtp(): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}?requireTLS=false`,
    close() {
      for (const s of sockets) s.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function waitFor(check: () => boolean, ms: number): Promise<void> {
  const end = performance.now() + ms;
  while (!check()) {
    if (performance.now() > end) throw new Error(`not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

for (const dialect of testDialects()) {
  describe(`a destination that never answers holds up no other destination (${dialect})`, () => {
    let t: TestApp;
    let org: TestOrg;
    let hanging: WebhookReceiver;
    let healthy: WebhookReceiver;
    let smtp: { url: string; close(): Promise<void> };

    beforeAll(async () => {
      smtp = await startSilentSmtp();
      t = await createTestApp({
        dialect,
        clock: new ManualClock(Date.parse('2026-11-28T10:00:00Z')),
        configFile: { alerting: { send_timeout_ms: TIMEOUT_MS }, smtp: smtp.url },
      });
      org = await t.createOrg();
      hanging = await startWebhookReceiver({ secret: 'unused' });
      healthy = await startWebhookReceiver({ secret: 'unused' });
      await t.tocsin.services.alerting.pipeline.workers.start();
    });
    afterAll(async () => {
      const stopping = t.tocsin.services.alerting.pipeline.workers.stop();
      await hanging.close();
      await smtp.close();
      await stopping;
      await healthy.close();
      await t.close();
    });

    const hook = async (name: string, url: string) =>
      (await api(t, org.apiKey, 'POST', WEBHOOKS, { type: 'generic_webhook', name, config: { url } })).body
        .id as string;

    /** down then recovered of one monitor linked to both destinations: how long the healthy one's recovered took. */
    async function recoveredDelay(slowId: string, healthyId: string): Promise<number> {
      const pipeline = t.tocsin.services.alerting.pipeline;
      const monitorId = await createMonitor(t, org.apiKey, [slowId, healthyId]);
      const fanOut = async () => {
        while ((await pipeline.fanOutOnce()) > 0);
        pipeline.nudgeWorkers();
      };
      healthy.reset();
      await recordEvent(t, { organizationId: org.organizationId, type: 'down', monitorId });
      await fanOut();
      await waitFor(() => healthy.requests.length === 1, TIMEOUT_MS - 500);
      const sent = performance.now();
      await recordEvent(t, { organizationId: org.organizationId, type: 'recovered', monitorId });
      await fanOut();
      await waitFor(() => healthy.requests.length === 2, 3 * TIMEOUT_MS);
      expect((healthy.requests[1]!.json as { event: string }).event).toBe('recovered');
      return performance.now() - sent;
    }

    it('behind a webhook that never answers, the healthy webhook gets its next alert at once', async () => {
      hanging.hangNext(10);
      const delay = await recoveredDelay(
        await hook('Never answers', hanging.webhookUrl),
        await hook('Healthy', healthy.webhookUrl),
      );
      expect(hanging.requests.length).toBeGreaterThanOrEqual(1);
      expect(delay).toBeLessThan(TIMEOUT_MS / 3);
    });

    it('behind an SMTP server that never answers, the healthy webhook gets its next alert at once', async () => {
      const mail = await api(t, org.apiKey, 'POST', WEBHOOKS, {
        type: 'email',
        name: 'Ops mail',
        config: { address: 'ops@example.com' },
      });
      expect(mail.status).toBe(201);
      const delay = await recoveredDelay(mail.body.id as string, await hook('Healthy 2', healthy.webhookUrl));
      expect(delay).toBeLessThan(TIMEOUT_MS / 3);
    });
  });
}
