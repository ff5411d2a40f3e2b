import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { MonitorTransition } from '../../src/modules/incidents/index.ts';
import { createTestApp, ManualClock, type TestApp, type TestOrg } from '../support/app.ts';
import { testDialects } from '../support/databases.ts';
import { startAllFakes, startWebhookReceiver, type AllFakes, type WebhookReceiver } from '../fakes/index.ts';
import { api, createMonitor, recordEvent, WEBHOOKS } from './helpers.ts';
import { acceptInvitation, mailedToken } from '../support/sessions.ts';

/**
 * Drives a monitor transition the way the check engine does: the app's IncidentsService.handleMonitorTransition in a
 * transaction, which opens or resolves the monitor's incident and writes down/recovered into the outbox. Nothing here
 * writes an event: when the incidents module stops writing them, no destination hears of the outage and the test fails.
 */
async function transition(t: TestApp, tr: MonitorTransition): Promise<void> {
  await t.tocsin.database.transaction((tx) => t.tocsin.services.incidents.handleMonitorTransition(tx, tr));
}

for (const dialect of testDialects()) {
  describe(`alerts to every destination type through an outage and recovery (${dialect})`, () => {
    let t: TestApp;
    let fakes: AllFakes;
    let standard: WebhookReceiver;
    let legacy: WebhookReceiver;
    const secrets = { standard: '', legacy: '' };
    let org: TestOrg;
    let clock: ManualClock;

    beforeAll(async () => {
      fakes = await startAllFakes();
      clock = new ManualClock(Date.now());
      standard = await startWebhookReceiver({
        get secret() {
          return secrets.standard;
        },
        now: () => clock.now(),
      } as { secret: string });
      legacy = await startWebhookReceiver({
        get secret() {
          return secrets.legacy;
        },
        now: () => clock.now(),
      } as { secret: string });
      t = await createTestApp({ dialect, clock, configFile: { providers: fakes.providers, smtp: fakes.smtp.url } });
    });
    // Each case has an organization of its own and fakes that have seen nothing: it counts the messages it causes.
    beforeEach(async () => {
      org = await t.createOrg();
      fakes.resetAll();
      standard.reset();
      legacy.reset();
    });
    afterAll(async () => {
      t.tocsin.services.alerting.mailer.close();
      await t.close();
      await standard.close();
      await legacy.close();
      await fakes.closeAll();
    });

    it('a monitor with webhooks (both shapes), PagerDuty, email and incident tools goes down and recovers', async () => {
      const { orgs } = t.tocsin.services;
      await orgs.markEmailVerified(org.userId);
      const owner = await orgs.findUser(org.userId);
      const unverified = await orgs.ensureUser({ email: 'new-hire@example.com' });
      await orgs.addMember(org.organizationId, unverified.id, 'member');

      const create = async (body: Record<string, unknown>) => {
        const res = await api(t, org.apiKey, 'POST', WEBHOOKS, body);
        expect(res.status).toBe(201);
        return res.body as { id: string; signing_secret?: string };
      };
      const hookStd = await create({ type: 'generic_webhook', name: 'Std hook', config: { url: standard.webhookUrl } });
      secrets.standard = hookStd.signing_secret!;
      const hookLegacy = await create({
        type: 'generic_webhook',
        name: 'Legacy hook',
        payload_format: 'legacy',
        config: { url: legacy.webhookUrl },
      });
      secrets.legacy = hookLegacy.signing_secret!;
      const pd = await create({
        type: 'oncall_pager1',
        name: 'PagerDuty',
        config: { integration_key: fakes.oncall_pager1.integrationKey },
      });
      const mail = await create({ type: 'email', name: 'Ops mail', config: { address: 'ops@example.com' } });
      const io = await create({
        type: 'incident_tool1',
        name: 'incident.io',
        config: { api_key: fakes.incident_tool1.apiKey, severity_id: fakes.incident_tool1.severityIds[0] },
      });
      const rootly = await create({
        type: 'incident_tool2',
        name: 'Rootly',
        config: { api_key: fakes.incident_tool2.apiKey },
      });
      const all = [hookStd, hookLegacy, pd, mail, io, rootly];
      const monitorId = await createMonitor(
        t,
        org.apiKey,
        all.map((d) => d.id),
      );

      const downAt = clock.now();
      await transition(t, {
        organizationId: org.organizationId,
        monitorId,
        monitorName: 'Checkout API',
        from: 'up',
        to: 'down',
        at: downAt,
        cause: 'HTTP 503 (expected 200)',
        executionId: null,
      });
      await t.tocsin.services.alerting.pipeline.runUntilIdle();
      clock.advance(5 * 60_000);
      await transition(t, {
        organizationId: org.organizationId,
        monitorId,
        monitorName: 'Checkout API',
        from: 'down',
        to: 'up',
        at: clock.now(),
        cause: null,
        executionId: null,
      });
      await t.tocsin.services.alerting.pipeline.runUntilIdle();

      // The incidents module wrote both events, about the one incident it opened and resolved.
      const written = (await t.tocsin.services.events.readAfter(0, 10_000)).filter((e) => e.monitorId === monitorId);
      expect(written.map((e) => e.type)).toEqual(['down', 'incident_opened', 'recovered', 'incident_resolved']);
      expect(new Set(written.map((e) => e.incidentId)).size).toBe(1);
      expect(written[0]!.incidentId).toMatch(/^inc_/);

      // Generic webhooks: signed down then recovered, once each, in both shapes.
      expect(standard.verified().map((r) => (r.json as { event: string }).event)).toEqual(['down', 'recovered']);
      expect(standard.requests).toHaveLength(2);
      expect(standard.requests[0]!.json).toMatchObject({
        product: 'Tocsin',
        organization: { id: org.organizationId },
        destination: { id: hookStd.id, name: 'Std hook' },
        monitor: { id: monitorId },
      });
      expect(legacy.verified().map((r) => (r.json as { event: string }).event)).toEqual([
        'monitor_down',
        'monitor_recovered',
      ]);
      expect(legacy.requests).toHaveLength(2);
      expect(legacy.requests[0]!.json).toMatchObject({ destination: 'Legacy hook', organization: expect.any(String) });
      for (const r of [...standard.requests, ...legacy.requests])
        expect(r.headers['x-service-delivery']).toMatch(/^dlv_/);

      // PagerDuty: trigger then resolve with one dedup key.
      const pdEvents = fakes.oncall_pager1.requests.map((r) => r.json as { event_action: string; dedup_key: string });
      expect(pdEvents.map((e) => e.event_action)).toEqual(['trigger', 'resolve']);
      expect(new Set(pdEvents.map((e) => e.dedup_key)).size).toBe(1);
      expect([...fakes.oncall_pager1.alerts.values()].map((a) => a.status)).toEqual(['resolved']);

      // Email: the email destination and the verified owner get down + recovered; the unverified member nothing.
      const to = (address: string) => fakes.smtp.messages.filter((m) => m.to.includes(address));
      expect(to('ops@example.com')).toHaveLength(2);
      expect(to(owner!.email)).toHaveLength(2);
      expect(to(owner!.email)[1]!.headers['in-reply-to']).toBe(to(owner!.email)[0]!.headers['message-id']);
      expect(to('new-hire@example.com')).toHaveLength(0);

      // Incident tools: an incident that stays open (nothing sent on recovery).
      expect(fakes.incident_tool1.requests).toHaveLength(1);
      expect(fakes.incident_tool2.requests).toHaveLength(1);

      // Every destination shows its last success.
      for (const d of all) {
        const read = await api(t, org.apiKey, 'GET', `${WEBHOOKS}/${d.id}`);
        expect(read.body.last_success_at, d.id).not.toBeNull();
        expect(read.body.last_failure_at, d.id).toBeNull();
      }
    });

    it('members verify by link; only verified members get the organization email; the toggle turns it off', async () => {
      const { orgs } = t.tocsin.services;
      fakes.smtp.reset();
      const invited = await api(t, org.apiKey, 'POST', '/api/v1/auth/organization/members', {
        email: 'oncall@example.com',
        role: 'member',
      });
      expect(invited.status).toBe(201);
      expect(invited.body).toEqual({ email: 'oncall@example.com', name: null, role: 'member', status: 'invited' });
      const mail = fakes.smtp.messages.find((m) => m.to.includes('oncall@example.com'))!;
      const token = mailedToken([mail], 'oncall@example.com', '/accept-invitation');
      const monitorId = await createMonitor(t, org.apiKey);

      const downOnce = async () => {
        fakes.smtp.reset();
        await recordEvent(t, {
          organizationId: org.organizationId,
          type: 'down',
          monitorId,
          payload: { cause: 'timeout' },
        });
        await t.tocsin.services.alerting.pipeline.runUntilIdle();
        return fakes.smtp.messages.flatMap((m) => m.to);
      };
      expect(await downOnce()).not.toContain('oncall@example.com');

      // Accepting (the web page's POST) verifies the address; the link works once.
      const accept = { token, name: 'On Call', password: 'on-call password' };
      expect((await acceptInvitation(t, accept)).statusCode).toBe(201);
      expect((await acceptInvitation(t, accept)).statusCode).toBe(400);
      const members = await api(t, org.apiKey, 'GET', '/api/v1/auth/organization/members');
      expect(members.body.data.find((m: { email: string }) => m.email === 'oncall@example.com').email_verified).toBe(
        true,
      );
      expect(await downOnce()).toContain('oncall@example.com');

      const off = await api(t, org.apiKey, 'PATCH', '/api/v1/auth/organization', { email_alerts_enabled: false });
      expect(off.body.email_alerts_enabled).toBe(false);
      expect(await downOnce()).toEqual([]);
      await orgs.setEmailAlertsEnabled(org.organizationId, true);

      const member = await t.createOrg({ role: 'member' });
      expect(
        (await api(t, member.apiKey, 'PATCH', '/api/v1/auth/organization', { email_alerts_enabled: false })).body.error
          .code,
      ).toBe('forbidden');
      expect(
        (await api(t, member.apiKey, 'POST', '/api/v1/auth/organization/members', { email: 'x@example.com' })).body
          .error.code,
      ).toBe('forbidden');
      const unverified = members.body.data.find((m: { email_verified: boolean }) => !m.email_verified);
      expect(
        (
          await api(
            t,
            org.apiKey,
            'POST',
            `/api/v1/auth/organization/members/${unverified.user_id}/resend-verification`,
          )
        ).status,
      ).toBe(202);
      expect(
        (await api(t, org.apiKey, 'POST', `/api/v1/auth/organization/members/usr_nope/resend-verification`)).status,
      ).toBe(404);
      expect((await t.tocsin.app.inject({ method: 'GET', url: '/verify-email?token=nope' })).statusCode).toBe(400);
    });
  });
}
