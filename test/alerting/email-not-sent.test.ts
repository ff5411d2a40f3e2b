import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, ManualClock, type TestApp, type TestOrg } from '../support/app.ts';
import { testDialects } from '../support/databases.ts';
import { api, WEBHOOKS } from './helpers.ts';

const NOTE = 'Not sent: no SMTP server is configured (smtp); the mail was written to the server log';

describe.each(testDialects())('email while no SMTP server is configured (%s)', (dialect) => {
  let t: TestApp;
  let org: TestOrg;
  let destinationId = '';

  beforeAll(async () => {
    t = await createTestApp({ dialect, clock: new ManualClock(Date.parse('2026-11-28T10:00:00Z')) });
    expect(t.config.smtp).toBeNull();
    org = await t.createOrg();
    const created = await api(t, org.apiKey, 'POST', WEBHOOKS, {
      type: 'email',
      name: 'Ops mail',
      events: ['incident_opened'],
      config: { address: 'ops@example.com' },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    destinationId = created.body.id as string;
  });
  afterAll(() => t.close());

  it('Test answers "logged" with what happened, not "delivered"; the destination records no success', async () => {
    const res = await api(t, org.apiKey, 'POST', `${WEBHOOKS}/${destinationId}/test`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ outcome: 'logged', attempts: 1, error: null, note: NOTE });
    expect(res.body.destination.last_success_at).toBeNull();
    expect(t.logs.text).toContain('email (no SMTP configured)');
  });

  it("an incident's deliveries say logged with the note", async () => {
    const opened = await api(t, org.apiKey, 'POST', '/api/v1/incidents', { title: 'Payments degraded' });
    expect(opened.status, JSON.stringify(opened.body)).toBe(201);
    await t.tocsin.services.alerting.pipeline.runUntilIdle();
    const res = await api(t, org.apiKey, 'GET', `/api/v1/incidents/${opened.body.id as string}/deliveries`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toEqual([
      expect.objectContaining({
        destination: { id: destinationId, name: 'Ops mail', type: 'email' },
        status: 'logged',
        outcome: 'logged',
        last_error: null,
        note: NOTE,
        delivered_at: null,
      }),
    ]);
  });
});
