/**
 * Scheduled reports end to end on SQLite and PostgreSQL, through real destinations: the real SMTP server (PDF and CSV
 * attached, the PDF parsed by poppler's pdfinfo), a signed generic webhook (data of §12), a Slack-style chat webhook
 * (short summary with links); the links served without an API key for 7 days, then removed; last_status from the
 * deliveries; a manual run that keeps next_run_at; a missed schedule run once; a paused one not at all.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SCOPES } from '../../src/modules/auth/index.ts';
import { api, createMonitor, WEBHOOKS } from '../alerting/helpers.ts';
import { startAllFakes, startWebhookReceiver, type AllFakes, type WebhookReceiver } from '../fakes/index.ts';
import { createTestApp, ManualClock, type TestApp, type TestOrg } from '../support/app.ts';
import { testDialects } from '../support/databases.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies in assertions

const DAY = 86_400_000;
const BASE = '/api/v1/scheduled-reports';

interface MimePart {
  contentType: string;
  filename: string | null;
  body: Buffer;
}

/** The leaf parts of a multipart mail (base64 or 7bit/quoted-printable text), enough to read attachments. */
function mimeParts(raw: string): MimePart[] {
  const out: MimePart[] = [];
  const walk = (entity: string) => {
    const split = entity.indexOf('\r\n\r\n');
    const head = entity.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
    const body = entity.slice(split + 4);
    const type = /content-type:\s*([^;\r\n]+)([^\r\n]*)/i.exec(head);
    const contentType = type?.[1]?.trim().toLowerCase() ?? 'text/plain';
    const boundary = /boundary="?([^";\r\n]+)"?/i.exec(type?.[2] ?? '')?.[1];
    if (contentType.startsWith('multipart/') && boundary) {
      for (const piece of body.split(`--${boundary}`).slice(1)) {
        if (piece.startsWith('--')) break;
        walk(piece.replace(/^\r\n/, ''));
      }
      return;
    }
    const filename = /filename="?([^";\r\n]+)"?/i.exec(head)?.[1] ?? null;
    const encoding = /content-transfer-encoding:\s*(\S+)/i.exec(head)?.[1]?.toLowerCase();
    out.push({
      contentType,
      filename,
      body: encoding === 'base64' ? Buffer.from(body.replace(/\s+/g, ''), 'base64') : Buffer.from(body),
    });
  };
  walk(raw);
  return out;
}

/** Pages of a PDF as poppler reads it (throws when it is not a PDF poppler can parse). */
/** The PDF's text (poppler), whitespace collapsed. */
function pdfText(pdf: Buffer): string {
  const dir = mkdtempSync(join(tmpdir(), 'tocsin-srp-pdf-'));
  const path = join(dir, 'report.pdf');
  writeFileSync(path, pdf);
  const text = spawnSync('pdftotext', [path, '-'], { encoding: 'utf8' });
  if (text.status !== 0) throw new Error(`pdftotext: ${text.stderr}`);
  return text.stdout.replace(/\s+/g, ' ');
}

function pdfPages(pdf: Buffer): number {
  const dir = mkdtempSync(join(tmpdir(), 'tocsin-srp-pdf-'));
  const path = join(dir, 'report.pdf');
  writeFileSync(path, pdf);
  const info = spawnSync('pdfinfo', [path], { encoding: 'utf8' });
  if (info.status !== 0) throw new Error(`pdfinfo: ${info.stderr}`);
  return Number(/Pages:\s+(\d+)/.exec(info.stdout)?.[1]);
}

describe.each(testDialects())('scheduled report delivery on %s', (dialect) => {
  let t: TestApp;
  let fakes: AllFakes;
  let hook: WebhookReceiver;
  let org: TestOrg;
  const secrets = { hook: '' };
  const clock = new ManualClock('2026-11-24T10:00:00.000Z');
  const ids = { email: '', hook: '', slack: '' };

  const runner = () => t.tocsin.services.scheduledReports.runner;
  const deliver = async () => {
    await t.tocsin.services.alerting.pipeline.runUntilIdle();
    await runner().settleAll();
  };
  const get = async (id: string) => (await api(t, org.apiKey, 'GET', `${BASE}/${id}`)).body as Json;

  beforeAll(async () => {
    fakes = await startAllFakes();
    hook = await startWebhookReceiver({
      get secret() {
        return secrets.hook;
      },
      now: () => clock.now(),
    } as { secret: string });
    t = await createTestApp({ dialect, clock, configFile: { providers: fakes.providers, smtp: fakes.smtp.url } });
    const base = await t.createOrg();
    const key = await t.tocsin.services.auth.issueKey({
      organizationId: base.organizationId,
      name: 'roomy',
      scopes: [...SCOPES],
      environments: ['production'],
      userId: base.userId,
      createdBy: base.userId,
      rateLimits: { read_per_minute: 100_000, write_per_minute: 100_000, delete_per_minute: 100_000 },
    });
    org = { ...base, apiKey: key.key, keyId: key.id };
    const create = async (body: Json) => {
      const res = await api(t, org.apiKey, 'POST', WEBHOOKS, body);
      expect(res.status).toBe(201);
      return res.body as Json;
    };
    ids.email = (await create({ type: 'email', name: 'Reports mail', config: { address: 'reports@example.com' } })).id;
    const h = await create({ type: 'generic_webhook', name: 'Report hook', config: { url: hook.webhookUrl } });
    ids.hook = h.id;
    secrets.hook = h.signing_secret;
    ids.slack = (
      await create({
        type: 'chatapp1_webhook',
        name: 'Slack #reports',
        // Destinations receive what they subscribe to; a report goes to them whatever this list says.
        events: ['down'],
        config: { url: fakes.chatapp1_webhook.webhookUrl },
      })
    ).id;
    await createMonitor(t, org.apiKey);
  });
  beforeEach(() => {
    fakes.resetAll();
    hook.reset();
  });
  afterAll(async () => {
    t.tocsin.services.alerting.mailer.close();
    await t.close();
    await hook.close();
    await fakes.closeAll();
  });

  it('a due weekly report reaches email (PDF + CSV attached), the signed webhook and the chat, once', async () => {
    const created = await api(t, org.apiKey, 'POST', BASE, {
      report_type: 'availability',
      frequency: 'weekly',
      day_of_week: 1,
      time_of_day: '08:00',
      timezone: 'Europe/Berlin',
      destination_ids: [ids.email, ids.hook, ids.slack],
    });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    expect(await runner().runDue()).toBe(0);

    clock.set('2026-11-30T07:00:00.000Z');
    expect(await runner().runDue()).toBe(1);
    expect(await runner().runDue()).toBe(0);
    await deliver();

    // Email: one mail with the PDF and the CSV attached.
    const mails = fakes.smtp.messages.filter((m) => m.to.includes('reports@example.com'));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toContain('Scheduled report');
    const parts = mimeParts(mails[0]!.raw);
    const pdf = parts.find((p) => p.contentType === 'application/pdf');
    const csv = parts.find((p) => p.contentType === 'text/csv');
    expect(pdf?.filename).toMatch(/\.pdf$/);
    expect(csv?.filename).toMatch(/\.csv$/);
    expect(pdf!.body.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdfPages(pdf!.body)).toBeGreaterThanOrEqual(1);
    expect(csv!.body.toString('utf8')).toContain('monitor_id');

    // Generic webhook: signed like every delivery, data of §12.
    expect(hook.requests).toHaveLength(1);
    expect(hook.verifications[0]).toMatchObject({ ok: true });
    const payload = hook.requests[0]!.json as Json;
    expect(payload.event).toBe('scheduled_report');
    expect(payload.monitor).toBeNull();
    expect(Object.keys(payload.data).sort()).toEqual([
      'files',
      'period',
      'report_type',
      'scheduled_report_id',
      'summary',
    ]);
    expect(payload.data).toMatchObject({
      scheduled_report_id: id,
      report_type: 'availability',
      // The 7 local days ending at Monday's local midnight (Berlin, CET).
      period: { from: '2026-11-22T23:00:00.000Z', to: '2026-11-29T23:00:00.000Z', timezone: 'Europe/Berlin' },
      summary: { monitors: 1 },
    });
    for (const kind of ['json', 'csv', 'pdf']) {
      expect(payload.data.files[kind]).toMatchObject({
        id: expect.stringMatching(/^rpf_/),
        url: expect.stringContaining('/api/v1/report-files/'),
        size_bytes: expect.any(Number),
      });
    }

    // Chat: a short summary with the links.
    expect(fakes.chatapp1_webhook.requests).toHaveLength(1);
    const chat = JSON.stringify(fakes.chatapp1_webhook.requests[0]!.json);
    expect(chat).toContain('Period: 2026-11-23 – 2026-11-29 (Europe/Berlin)');
    expect(chat).toContain(new URL(payload.data.files.pdf.url).pathname);

    // The links work without an API key: the same bytes as the attachment, with the content type.
    const pdfLink = new URL(payload.data.files.pdf.url);
    const served = await t.tocsin.app.inject({ method: 'GET', url: `${pdfLink.pathname}${pdfLink.search}` });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('application/pdf');
    expect(served.rawPayload.equals(pdf!.body)).toBe(true);
    const jsonLink = new URL(payload.data.files.json.url);
    const json = await t.tocsin.app.inject({ method: 'GET', url: `${jsonLink.pathname}${jsonLink.search}` });
    expect(json.json()).toMatchObject({ report: 'availability' });
    const wrong = await t.tocsin.app.inject({ method: 'GET', url: `${pdfLink.pathname}?token=not-the-token` });
    expect(wrong.statusCode).toBe(404);
    expect(wrong.json().error.code).toBe('not_found');

    const after = await get(id);
    expect(after).toMatchObject({
      last_status: 'delivered',
      last_run_at: '2026-11-30T07:00:00.000Z',
      next_run_at: '2026-12-07T07:00:00.000Z',
    });

    // Seven days later the links are dead and the cleanup removes the files.
    clock.set(Date.parse('2026-11-30T07:00:00.000Z') + 7 * DAY);
    const expired = await t.tocsin.app.inject({ method: 'GET', url: `${pdfLink.pathname}${pdfLink.search}` });
    expect(expired.statusCode).toBe(404);
    // The role's round removes them (it also makes the run that fell due meanwhile).
    const table = () =>
      t.tocsin.database
        .tables<{ report_file: { id: string } }>()
        .selectFrom('report_file')
        .select('id')
        .where('id', 'in', [payload.data.files.pdf.id, payload.data.files.csv.id, payload.data.files.json.id])
        .execute();
    expect(await table()).toHaveLength(3);
    await t.tocsin.services.scheduledReports.role.round();
    expect(await table()).toHaveLength(0);
    await deliver();
  });

  it('POST /run delivers now and keeps next_run_at; last_status follows the deliveries', async () => {
    const created = (
      await api(t, org.apiKey, 'POST', BASE, {
        report_type: 'sla',
        frequency: 'monthly',
        day_of_month: 1,
        time_of_day: '06:00',
        timezone: 'America/New_York',
        destination_ids: [ids.hook, ids.slack],
      })
    ).body as Json;
    const ran = await api(t, org.apiKey, 'POST', `${BASE}/${created.id}/run`);
    expect(ran.status).toBe(202);
    expect(await runner().runDue()).toBe(1);
    expect(await runner().runDue()).toBe(0);
    // The chat refuses for good (403 invalid_token): one of two delivered.
    fakes.chatapp1_webhook.failNext('invalid_token', 10);
    await deliver();
    expect(hook.requests.map((r) => (r.json as Json).data.report_type)).toEqual(['sla']);
    const partial = await get(created.id);
    expect(partial).toMatchObject({ last_status: 'partially_delivered', next_run_at: created.next_run_at });
    expect(partial.last_run_at).toBe(new Date(clock.now()).toISOString());

    // Both refuse: failed.
    hook.failNext('gone', 10);
    fakes.chatapp1_webhook.failNext('invalid_token', 10);
    await api(t, org.apiKey, 'POST', `${BASE}/${created.id}/run`);
    expect(await runner().runDue()).toBe(1);
    await deliver();
    expect((await get(created.id)).last_status).toBe('failed');

    // GET /runs: each delivery with its destination and outcome (both runs started at the same instant here, so
    // their order is not asserted).
    const runs = await api(t, org.apiKey, 'GET', `${BASE}/${created.id}/runs`);
    expect(runs.status).toBe(200);
    expect(runs.body.data).toHaveLength(2);
    const first = (runs.body.data as Json[]).find((r) => r.status === 'partially_delivered')!;
    const second = (runs.body.data as Json[]).find((r) => r.status === 'failed')!;
    expect(first).toMatchObject({ manual: true, destination_count: 2, missing_destinations: 0 });
    expect(second).toMatchObject({ manual: true, destination_count: 2, missing_destinations: 0 });
    const byType = (run: Json) => Object.fromEntries((run.deliveries as Json[]).map((d) => [d.destination_type, d]));
    expect(byType(first).generic_webhook).toMatchObject({
      destination_id: ids.hook,
      destination_name: 'Report hook',
      status: 'delivered',
      last_error: null,
    });
    expect(byType(first).generic_webhook.delivered_at).toEqual(expect.any(String));
    expect(byType(first).chatapp1_webhook).toMatchObject({ destination_id: ids.slack, status: 'failed' });
    expect(byType(first).chatapp1_webhook.last_error).toMatch(/invalid_token/);
    expect(byType(second).generic_webhook.status).toBe('failed');
    expect((await api(t, org.apiKey, 'GET', `${BASE}/${created.id}/runs?limit=1`)).body.data).toHaveLength(1);
    expect((await api(t, org.apiKey, 'GET', `${BASE}/${created.id}/runs?limit=0`)).status).toBe(422);
    expect((await api(t, org.apiKey, 'GET', `${BASE}/srp_00000000000000000000000000/runs`)).status).toBe(404);
  });

  it('each chat type gets the summary with the period and links, in its own wire format', async () => {
    const make = async (type: string, config: Json) => {
      const res = await api(t, org.apiKey, 'POST', WEBHOOKS, { type, name: `${type} reports`, config });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body.id as string;
    };
    const chats = [
      await make('chatapp2_webhook', { url: fakes.chatapp2_webhook.webhookUrl }),
      await make('chatapp3_webhook', { url: fakes.chatapp3_webhook.teamsUrl }),
      await make('chatapp4_bot', { bot_token: fakes.chatapp4_bot.botToken, chat_id: '42' }),
    ];
    const created = (
      await api(t, org.apiKey, 'POST', BASE, {
        report_type: 'monitor_health',
        frequency: 'daily',
        time_of_day: '05:00',
        timezone: 'Pacific/Chatham',
        destination_ids: chats,
      })
    ).body as Json;
    await api(t, org.apiKey, 'POST', `${BASE}/${created.id}/run`);
    expect(await runner().runDue()).toBe(1);
    await deliver();
    const files = await t.tocsin.database
      .tables<{ report_file: { id: string; kind: string; scheduled_report_id: string } }>()
      .selectFrom('report_file')
      .select(['id', 'kind'])
      .where('scheduled_report_id', '=', created.id)
      .execute();
    const pdfId = files.find((f) => f.kind === 'pdf')!.id;
    for (const fake of [fakes.chatapp2_webhook, fakes.chatapp3_webhook, fakes.chatapp4_bot]) {
      expect(fake.requests).toHaveLength(1);
      const body = fake.requests[0]!.rawBody;
      expect(body).toContain('(Pacific/Chatham)');
      expect(body).toContain(`/api/v1/report-files/${pdfId}?token=`);
    }
    const dest = await api(t, org.apiKey, 'GET', `${WEBHOOKS}?limit=200`);
    const failures = (dest.body.data as Json[])
      .filter((d) => chats.includes(d.id) && d.last_failure_reason)
      .map((d) => `${d.type}: ${d.last_failure_reason}`);
    expect(failures).toEqual([]);
    expect((await get(created.id)).last_status).toBe('delivered');
  });

  it('a destination deleted since the schedule was made counts as not delivered', async () => {
    const temp = await api(t, org.apiKey, 'POST', WEBHOOKS, {
      type: 'email',
      name: 'Temporary',
      config: { address: 'temp@example.com' },
    });
    const created = (
      await api(t, org.apiKey, 'POST', BASE, {
        report_type: 'incidents',
        frequency: 'daily',
        time_of_day: '05:00',
        timezone: 'UTC',
        destination_ids: [ids.hook, temp.body.id],
      })
    ).body as Json;
    expect((await api(t, org.apiKey, 'DELETE', `${WEBHOOKS}/${temp.body.id}`)).status).toBe(204);
    await api(t, org.apiKey, 'POST', `${BASE}/${created.id}/run`);
    expect(await runner().runDue()).toBe(1);
    await deliver();
    expect(hook.requests.filter((r) => (r.json as Json).data.scheduled_report_id === created.id)).toHaveLength(1);
    expect(fakes.smtp.messages.filter((m) => m.to.includes('temp@example.com'))).toHaveLength(0);
    expect((await get(created.id)).last_status).toBe('partially_delivered');
    const [run] = (await api(t, org.apiKey, 'GET', `${BASE}/${created.id}/runs`)).body.data as Json[];
    expect(run).toMatchObject({ status: 'partially_delivered', destination_count: 2, missing_destinations: 1 });
    expect((run!.deliveries as Json[]).map((d) => d.destination_id)).toEqual([ids.hook]);
  });

  it('a custom report is delivered over its own period, as its own JSON, CSV (section column) and PDF', async () => {
    const custom = await api(t, org.apiKey, 'POST', '/api/v1/custom-reports', {
      name: 'Weekly customer report',
      period: 'previous_month',
      timezone: 'Asia/Kolkata',
      widgets: [
        { kind: 'availability', title: 'Uptime' },
        { kind: 'incidents', title: 'Incidents' },
      ],
      visibility: 'organization',
    });
    expect(custom.status).toBe(201);
    const created = await api(t, org.apiKey, 'POST', BASE, {
      report_type: 'custom',
      custom_report_id: custom.body.id,
      frequency: 'quarterly',
      day_of_month: 2,
      time_of_day: '09:00',
      timezone: 'UTC',
      destination_ids: [ids.email, ids.hook],
    });
    expect(created.status).toBe(201);
    await api(t, org.apiKey, 'POST', `${BASE}/${created.body.id}/run`);
    expect(await runner().runDue()).toBe(1);
    await deliver();
    const payload = hook.requests
      .map((r) => r.json as Json)
      .find((p) => p.data.scheduled_report_id === created.body.id)!;
    const now = new Date(clock.now());
    const monthStart = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1) - 5.5 * 3_600_000;
    expect(payload.data).toMatchObject({
      report_type: 'custom',
      period: { to: new Date(monthStart).toISOString(), timezone: 'Asia/Kolkata' },
      summary: { sections: 2 },
    });
    const mail = fakes.smtp.messages.find((m) => m.to.includes('reports@example.com'))!;
    const parts = mimeParts(mail.raw);
    const pdf = parts.find((p) => p.contentType === 'application/pdf')!.body;
    expect(pdfPages(pdf)).toBeGreaterThanOrEqual(2);
    // The closing note states each section's methodology: how downtime and maintenance were counted, and incidents.
    const methodology = pdfText(pdf).split('Methodology').at(-1)!;
    expect(methodology).toContain('maintenance windows that exclude maintenance from the SLA');
    expect(methodology).toContain('Incidents whose time overlaps the period');
    expect(parts.find((p) => p.contentType === 'text/csv')!.body.toString('utf8')).toMatch(/^(\uFEFF)?section,/);
    expect((await get(created.body.id)).last_status).toBe('delivered');
  });

  it('a schedule missed for weeks runs once, then waits for its next time; a paused one does not run', async () => {
    // Only this case's schedules: the earlier ones are paused.
    for (const s of (await api(t, org.apiKey, 'GET', `${BASE}?limit=200`)).body.data as Json[]) {
      await api(t, org.apiKey, 'PATCH', `${BASE}/${s.id}`, { enabled: false });
    }
    const daily = (
      await api(t, org.apiKey, 'POST', BASE, {
        report_type: 'availability',
        frequency: 'daily',
        time_of_day: '07:30',
        timezone: 'Asia/Kolkata',
        destination_ids: [ids.hook],
      })
    ).body as Json;
    const paused = (
      await api(t, org.apiKey, 'POST', BASE, {
        report_type: 'availability',
        frequency: 'daily',
        time_of_day: '07:30',
        timezone: 'Asia/Kolkata',
        destination_ids: [ids.hook],
        enabled: false,
      })
    ).body as Json;
    clock.advance(21 * DAY + 3_600_000);
    expect(await runner().runDue()).toBe(1);
    expect(await runner().runDue()).toBe(0);
    await deliver();
    const ran = hook.requests.map((r) => (r.json as Json).data.scheduled_report_id);
    expect(ran).toEqual([daily.id]);
    const after = await get(daily.id);
    expect(Date.parse(after.next_run_at)).toBeGreaterThan(clock.now());
    expect(Date.parse(after.next_run_at) - clock.now()).toBeLessThanOrEqual(DAY);
    expect((await get(paused.id)).last_status).toBe('never_run');
  });
});
