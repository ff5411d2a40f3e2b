import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createProbeRegistry } from '../../src/modules/checks/index.ts';
import { SecurityGradesRole } from '../../src/modules/intelligence/index.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { createOutboundConnector, systemResolver } from '../../src/platform/net/index.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../fakes/index.ts';
import { api, WEBHOOKS } from '../alerting/helpers.ts';
import { createTestApp, ManualClock, type TestApp, type TestOrg } from '../support/app.ts';
import { testDialects } from '../support/databases.ts';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import {
  generateCertificate,
  generateTestCa,
  startDnsServer,
  startHttpTarget,
  type DnsServer,
  type RunningTarget,
} from '../support/targets/index.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- webhook bodies are inspected loosely
type Json = Record<string, any>;

/**
 * Issue 12 end to end: real probes against loopback peers, the check engine's committed batches feeding
 * intelligence, the outbox, the alert pipeline and a signed generic webhook.
 */
for (const dialect of testDialects()) {
  describe(`intelligence end to end (${dialect})`, () => {
    let t: TestApp;
    let org: TestOrg;
    let clock: ManualClock;
    let receiver: WebhookReceiver;
    let target: RunningTarget;
    let dns: DnsServer;
    let delayMs = 50;
    let page = { server: 'nginx', text: 'Welcome' };
    let site: RunningTarget;
    let generated = 0;
    const secret = { value: '' };
    const registry = createProbeRegistry();

    beforeAll(async () => {
      clock = new ManualClock(Date.now());
      receiver = await startWebhookReceiver({
        get secret() {
          return secret.value;
        },
        now: () => clock.now(),
      } as { secret: string });
      target = await startHttpTarget((_req, res) => {
        setTimeout(() => {
          res.writeHead(200, { 'content-type': 'text/plain' });
          res.end('fine');
        }, delayMs);
      });
      site = await startHttpTarget((_req, res) => {
        generated++;
        res.writeHead(200, { 'content-type': 'text/html', server: page.server, date: new Date().toUTCString() });
        res.end(`<p>${page.text}</p>\n   <small>Generated at ${Date.now() + generated}</small>`);
      });
      dns = await startDnsServer({ 'www.shop.test': { CNAME: ['shop.edge.example.net'] } });
      t = await createTestApp({ dialect, clock });
      org = await t.createOrg();
    });
    // Each case counts the deliveries it causes: send what earlier cases left, then forget everything received.
    beforeEach(async () => {
      await t.tocsin.services.alerting.pipeline.runUntilIdle();
      receiver.reset();
      delayMs = 50;
    });
    afterAll(async () => {
      await t.close();
      await receiver.close();
      await target.close();
      await site.close();
      await dns.close();
    });

    async function destination(events: string[]): Promise<string> {
      const res = await api(t, org.apiKey, 'POST', WEBHOOKS, {
        type: 'generic_webhook',
        name: 'Intelligence hook',
        events,
        config: { url: receiver.webhookUrl },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      secret.value = (res.body as Json).signing_secret as string;
      return (res.body as Json).id as string;
    }

    async function monitor(body: Json): Promise<Json> {
      const res = await api(t, org.apiKey, 'POST', '/api/v1/monitors', body);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body as Json;
    }

    /** One real check of `m` at the clock's time, applied through the engine (one batch, one transaction). */
    async function check(m: Json): Promise<void> {
      clock.advance(20_000);
      const observation = await registry.run(
        { id: m.id, type: m.type, target: m.target, interval_seconds: m.interval_seconds, config: m.config },
        { now: () => clock.now(), allowPrivateTargets: true },
      );
      await t.tocsin.services.checks.engine.applyResults('e2e', [
        { monitorId: m.id as string, regionCode: m.region_codes[0] as string, dueAt: clock.now(), observation },
      ]);
      // Intelligence reads each batch after its commit (the engine's analytics).
      await t.tocsin.services.checks.engine.analyticsSettled();
    }

    async function delivered(): Promise<string[]> {
      await t.tocsin.services.alerting.pipeline.runUntilIdle();
      return receiver.verified().map((r) => (JSON.parse(r.rawBody) as Json).event as string);
    }

    it('a target whose latency goes from ~50 ms to 600 ms with alert_latency_ms 300 sends performance_anomaly, then performance_recovered', async () => {
      const hook = await destination(['performance_anomaly', 'performance_recovered', 'significant_change']);
      const m = await monitor({
        name: 'Slow shop',
        target: `${target.url}/`,
        interval_seconds: 20,
        config: { alert_latency_ms: 300, alert_destination_ids: [hook] },
      });
      for (let i = 0; i < 3; i++) await check(m);
      expect(await delivered()).toEqual([]);
      delayMs = 600;
      await check(m);
      await check(m);
      expect(await delivered()).toEqual([]); // two slow checks are not enough
      await check(m);
      expect(await delivered()).toEqual(['performance_anomaly']);
      const anomaly = JSON.parse(receiver.verified()[0]!.rawBody) as Json;
      expect(anomaly.message).toContain('Slow responses: Slow shop');
      expect(anomaly.message).toMatch(/Latency: \d{3} ms \(threshold 300 ms\)/);
      delayMs = 50;
      for (let i = 0; i < 3; i++) await check(m);
      expect(await delivered()).toEqual(['performance_anomaly', 'performance_recovered']);
      const events = await api(t, org.apiKey, 'GET', `/api/v1/intelligence/events?monitor_id=${m.id}`);
      expect((events.body as Json).data.map((e: Json) => e.kind)).toEqual([
        'performance_recovered',
        'performance_anomaly',
      ]);
    });

    it('a DNS answer that changes (and stays changed) sends significant_change naming both answers', async () => {
      const hook = await destination(['significant_change']);
      const m = await monitor({
        name: 'Shop DNS',
        type: 'dns',
        target: 'www.shop.test',
        interval_seconds: 20,
        config: { record_type: 'CNAME', resolver: dns.resolver, alert_destination_ids: [hook] },
      });
      const before = receiver.verified().length;
      await check(m);
      await check(m);
      dns.setRecords({ 'www.shop.test': { CNAME: ['d111111abcdef8.cloudfront.net'] } });
      await check(m);
      await delivered();
      expect(receiver.verified().length).toBe(before); // one sighting is not a change yet
      await check(m);
      await delivered();
      const bodies = receiver
        .verified()
        .slice(before)
        .map((r) => JSON.parse(r.rawBody) as Json);
      expect(bodies.map((b) => b.event)).toEqual(['significant_change']);
      expect(bodies[0]!.message).toContain('Significant dns change: Shop DNS');
      expect(bodies[0]!.message).toContain(
        'DNS CNAME records changed from shop.edge.example.net to d111111abcdef8.cloudfront.net.',
      );
      const events = await api(t, org.apiKey, 'GET', `/api/v1/intelligence/events?monitor_id=${m.id}&category=dns`);
      expect((events.body as Json).data).toHaveLength(1);
    });

    it('a page whose content and Server header change sends significant_change for each; a timestamp under an ignore pattern does not', async () => {
      const hook = await destination(['significant_change']);
      const m = await monitor({
        name: 'Shop page',
        target: `${site.url}/`,
        interval_seconds: 20,
        config: { content_ignore_patterns: ['Generated at \\d+'], alert_destination_ids: [hook] },
      });
      const before = receiver.verified().length;
      for (let i = 0; i < 3; i++) await check(m);
      await delivered();
      expect(receiver.verified().length).toBe(before); // the timestamp changes every time, ignored
      page = { server: 'nginx', text: 'Closed for maintenance' };
      await check(m);
      await check(m);
      page = { server: 'caddy', text: 'Closed for maintenance' };
      await check(m);
      await check(m);
      await delivered();
      const bodies = receiver
        .verified()
        .slice(before)
        .map((r) => JSON.parse(r.rawBody) as Json);
      expect(bodies.map((b) => b.event)).toEqual(['significant_change', 'significant_change']);
      expect(bodies[0]!.message).toContain('Significant content change: Shop page');
      expect(bodies[1]!.message).toContain('Header server changed from nginx to caddy.');
    });

    it('a custom response header that changes is reported (docs: every non-volatile header); a request id is not', async () => {
      let version = '1';
      let n = 0;
      const app = await startHttpTarget((_req, res) => {
        n++;
        res.writeHead(200, { 'content-type': 'text/plain', 'x-backend-version': version, 'x-request-id': `req-${n}` });
        res.end('ok');
      });
      try {
        const hook = await destination(['significant_change']);
        const m = await monitor({
          name: 'Backend',
          target: `${app.url}/`,
          interval_seconds: 20,
          config: { alert_destination_ids: [hook] },
        });
        const before = receiver.verified().length;
        for (let i = 0; i < 3; i++) await check(m);
        await delivered();
        expect(receiver.verified().length).toBe(before); // x-request-id changes on every response: volatile
        version = '2';
        await check(m);
        await check(m);
        await delivered();
        const bodies = receiver
          .verified()
          .slice(before)
          .map((r) => JSON.parse(r.rawBody) as Json);
        expect(bodies.map((b) => b.event)).toEqual(['significant_change']);
        expect(bodies[0]!.message).toContain('Header x-backend-version changed from 1 to 2.');
      } finally {
        await app.close();
      }
    });

    it('a rotated certificate sends significant_change: a renewal as info, another issuer as a warning', async () => {
      const caA = await generateTestCa('Test CA A');
      const caB = await generateTestCa('Test CA B');
      const leaf = (ca: typeof caA, days: number) =>
        generateCertificate({
          commonName: '127.0.0.1',
          altNames: ['127.0.0.1'],
          ca,
          notAfter: new Date(Date.now() + days * 86_400_000),
        });
      const first = await leaf(caA, 90);
      const server: HttpsServer = createHttpsServer({ key: first.key, cert: first.cert }, (_q, r) => r.end('ok'));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      try {
        const hook = await destination(['significant_change']);
        const m = await monitor({
          name: 'Shop TLS',
          type: 'tls',
          target: `127.0.0.1:${(server.address() as AddressInfo).port}`,
          interval_seconds: 20,
          config: { ca_certificate: `${caA.cert}\n${caB.cert}`, alert_destination_ids: [hook] },
        });
        const before = receiver.verified().length;
        await check(m);
        await check(m);
        const renewed = await leaf(caA, 180);
        server.setSecureContext({ key: renewed.key, cert: renewed.cert });
        await check(m);
        await check(m);
        const replaced = await leaf(caB, 180);
        server.setSecureContext({ key: replaced.key, cert: replaced.cert });
        await check(m);
        await check(m);
        await delivered();
        const bodies = receiver
          .verified()
          .slice(before)
          .map((r) => JSON.parse(r.rawBody) as Json);
        expect(bodies.map((b) => b.event)).toEqual(['significant_change', 'significant_change']);
        expect(bodies[0]!.message).toContain('Certificate renewed by Test CA A for the same names');
        expect(bodies[1]!.message).toContain('Certificate replaced: issuer Test CA A → Test CA B');
        const events = await api(t, org.apiKey, 'GET', `/api/v1/intelligence/events?monitor_id=${m.id}&category=tls`);
        expect((events.body as Json).data.map((e: Json) => e.severity)).toEqual(['warning', 'info']);
      } finally {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    });

    it('a replayed latency series through the engine sends anomaly_alert, anomaly_recovered and anomaly_flapping', async () => {
      const hook = await destination(['anomaly_alert', 'anomaly_recovered', 'anomaly_flapping']);
      const m = await monitor({
        name: 'Replayed API',
        target: 'https://api.example.com/',
        interval_seconds: 20,
        config: { alert_destination_ids: [hook] },
      });
      const before = receiver.verified().length;
      const engine = t.tocsin.services.checks.engine;
      let i = 0;
      const replay = async (count: number, latency: (k: number) => number) => {
        const results = [];
        for (let k = 0; k < count; k++) {
          clock.advance(20_000);
          const ms = latency(i++);
          results.push({
            monitorId: m.id as string,
            regionCode: m.region_codes[0] as string,
            dueAt: clock.now(),
            observation: {
              status: 'up' as const,
              started_at: clock.now(),
              duration_ms: ms,
              timings: { dns_ms: null, connect_ms: null, tls_ms: null, ttfb_ms: null, download_ms: null, total_ms: ms },
              http_status: 200,
              assertions: [],
              error: null,
            },
          });
          if (results.length === 30) {
            await engine.applyResults('e2e', results.splice(0));
            await engine.analyticsSettled();
          }
        }
        if (results.length > 0) await engine.applyResults('e2e', results);
        await engine.analyticsSettled();
      };
      await replay(3 * 180, (k) => 50 + (k % 5)); // three hours of history
      await replay(30, () => 650); // ten minutes slow
      await replay(30, (k) => 50 + (k % 5)); // ten minutes back to normal
      await replay(30, (k) => (k % 2 === 0 ? 700 : 50)); // alternating
      await delivered();
      const events = receiver
        .verified()
        .slice(before)
        .map((r) => JSON.parse(r.rawBody) as Json);
      expect(events.map((e) => e.event)).toEqual(['anomaly_alert', 'anomaly_recovered', 'anomaly_flapping']);
      expect(events[0]!.message).toContain('Anomaly detected: Replayed API');
      expect(events[0]!.message).toMatch(/Latency rose from a usual 5\d ms/);
      expect(events[2]!.message).toContain('Flapping: Replayed API');
    });

    it('a TLS grade drop and recovery, measured on local servers, send security_grade_downgraded and security_grade_recovered', async () => {
      const ca = await generateTestCa('Grades CA');
      const cert = await generateCertificate({ commonName: '127.0.0.1', altNames: ['127.0.0.1'], ca });
      const modern = {
        minVersion: 'TLSv1.2' as const,
        ciphers: 'TLS_AES_128_GCM_SHA256:ECDHE-ECDSA-AES128-GCM-SHA256',
      };
      const hsts = { 'strict-transport-security': 'max-age=31536000' };
      const server: HttpsServer = createHttpsServer({ key: cert.key, cert: cert.cert, ...modern }, (_q, r) => {
        r.writeHead(200, hsts);
        r.end('ok');
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      try {
        const hook = await destination(['security_grade_downgraded', 'security_grade_recovered']);
        const m = await monitor({
          name: 'Graded shop',
          target: `https://127.0.0.1:${(server.address() as AddressInfo).port}/`,
          interval_seconds: 20,
          config: { ca_certificate: ca.cert, alert_destination_ids: [hook] },
        });
        const role = new SecurityGradesRole({
          database: t.tocsin.database,
          clock,
          logger: createLogger({ level: 'silent', pretty: false }),
          intelligence: t.tocsin.services.intelligence,
          monitors: t.tocsin.services.monitors,
          intervalMs: 86_400_000,
          tickMs: 60_000,
          timeoutMs: 3000,
          connector: createOutboundConnector({ allowPrivateTargets: true, resolver: systemResolver }),
          tlsCa: ca.cert,
        });
        const graded = async () => {
          const [full] = await t.tocsin.services.monitors.findManyAnywhere([m.id as string]);
          expect(await role.grade(full!)).toBe(true);
          clock.advance(86_400_000);
        };
        const before = receiver.verified().length;
        await graded();
        server.setSecureContext({ key: cert.key, cert: cert.cert, minVersion: 'TLSv1', ciphers: 'DEFAULT@SECLEVEL=0' });
        await graded();
        server.setSecureContext({ key: cert.key, cert: cert.cert, ...modern });
        await graded();
        await delivered();
        const events = receiver
          .verified()
          .slice(before)
          .map((r) => JSON.parse(r.rawBody) as Json);
        expect(events.map((e) => e.event)).toEqual(['security_grade_downgraded', 'security_grade_recovered']);
        expect(events[0]!.message).toContain('Security grade dropped A+ → B: Graded shop');
        expect(events[1]!.message).toContain('Security grade recovered to A+: Graded shop');
        const grades = await api(t, org.apiKey, 'GET', `/api/v1/monitors/${m.id}/grades`);
        expect((grades.body as Json).current[0]).toMatchObject({ kind: 'tls', grade: 'A+' });
      } finally {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    });

    it('two monitors behind one local address that fail together show the correlation on the incident of each', async () => {
      // An organization of its own: the correlation's coverage counts every monitor of the organization on the address.
      const own = await t.createOrg();
      let failing = false;
      const shared = await startHttpTarget((_req, res) => {
        res.writeHead(failing ? 503 : 200, { 'content-type': 'text/plain' });
        res.end(failing ? 'down' : 'up');
      });
      try {
        const create = async (name: string, path: string, environment = 'production'): Promise<Json> => {
          const res = await api(t, own.apiKey, 'POST', '/api/v1/monitors', {
            name,
            target: `${shared.url}${path}`,
            interval_seconds: 20,
            environment,
            config: { failure_threshold: 1 },
          });
          expect(res.status, JSON.stringify(res.body)).toBe(201);
          return res.body as Json;
        };
        const [shop, api2] = [await create('Shop', '/shop'), await create('API', '/api')];
        await check(shop);
        await check(api2);
        failing = true;
        await check(shop);
        await check(api2);
        const incidentOf = async (m: Json): Promise<Json> => {
          const list = await api(t, own.apiKey, 'GET', `/api/v1/incidents?monitor_id=${m.id}`);
          const [incident] = (list.body as Json).data as Json[];
          expect(incident, `an incident for ${m.name}`).toBeDefined();
          const res = await api(t, own.apiKey, 'GET', `/api/v1/incidents/${incident!.id}`);
          expect(res.status).toBe(200);
          return res.body as Json;
        };
        const [shopIncident, apiIncident] = [await incidentOf(shop), await incidentOf(api2)];
        const expected = (other: Json) => [
          {
            id: expect.stringMatching(/^cor_/),
            attribute: 'address',
            value: '127.0.0.1',
            other_monitor_ids: [other.id],
            summary: expect.stringContaining('2 of 2 monitors sharing address 127.0.0.1'),
          },
        ];
        expect(shopIncident.correlations).toMatchObject(expected(api2));
        expect(apiIncident.correlations).toMatchObject(expected(shop));
        expect(shopIncident.correlations[0].id).toBe(apiIncident.correlations[0].id);
        // The same correlation through the intelligence API.
        const listed = await api(t, own.apiKey, 'GET', '/api/v1/intelligence/correlations');
        expect((listed.body as Json).data.map((c: Json) => c.id)).toEqual([shopIncident.correlations[0].id]);
      } finally {
        await shared.close();
      }
    });

    it('an incident shows no correlation with monitors outside the key’s environments, and none before its window', async () => {
      const own = await t.createOrg();
      let failing = false;
      const shared = await startHttpTarget((_req, res) => {
        res.writeHead(failing ? 503 : 200, { 'content-type': 'text/plain' });
        res.end(failing ? 'down' : 'up');
      });
      try {
        const create = async (name: string, environment: string): Promise<Json> => {
          const res = await api(t, own.apiKey, 'POST', '/api/v1/monitors', {
            name,
            target: `${shared.url}/${name}`,
            interval_seconds: 20,
            environment,
            config: { failure_threshold: 1 },
          });
          expect(res.status, JSON.stringify(res.body)).toBe(201);
          return res.body as Json;
        };
        const [prod, staging] = [await create('prod', 'production'), await create('staging', 'staging')];
        await check(prod);
        await check(staging);
        failing = true;
        await check(prod);
        await check(staging);
        const productionKey = (
          await t.tocsin.services.auth.issueKey({
            organizationId: own.organizationId,
            name: 'prod only',
            scopes: ['incidents:read'],
            environments: ['production'],
            userId: own.userId,
            createdBy: own.userId,
          })
        ).key;
        const list = await api(t, productionKey, 'GET', `/api/v1/incidents?monitor_id=${prod.id}`);
        const incidentId = ((list.body as Json).data as Json[])[0]!.id as string;
        const seenByProduction = await api(t, productionKey, 'GET', `/api/v1/incidents/${incidentId}`);
        expect((seenByProduction.body as Json).correlations).toMatchObject([
          { attribute: 'address', other_monitor_ids: [] },
        ]);
        const seenByAll = await api(t, own.apiKey, 'GET', `/api/v1/incidents/${incidentId}`);
        expect((seenByAll.body as Json).correlations).toMatchObject([
          { attribute: 'address', other_monitor_ids: [staging.id] },
        ]);
        // Recovery, then a later incident of the same monitor failing alone: the old correlation is not its own.
        failing = false;
        await check(prod);
        await check(staging);
        clock.advance(30 * 60_000);
        failing = true;
        await check(prod);
        const later = await api(t, own.apiKey, 'GET', `/api/v1/incidents?monitor_id=${prod.id}`);
        const newest = ((later.body as Json).data as Json[])[0]!;
        expect(newest.id).not.toBe(incidentId);
        const detail = await api(t, own.apiKey, 'GET', `/api/v1/incidents/${newest.id as string}`);
        expect((detail.body as Json).correlations).toEqual([]);
      } finally {
        await shared.close();
      }
    });
  });
}
