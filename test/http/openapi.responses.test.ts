/**
 * Every GET operation of the OpenAPI document, called on real data (a demo organization's history, incidents, SLA
 * targets, a custom report, then destinations, a status page, a scheduled report run and its files, keys, a service
 * account, a heartbeat, an invitation and a session), answers with a status and a media type the document lists and a
 * body that validates against the documented schema. An operation added to the document without a call here fails.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDemo } from '../../src/cli/demo/demo.generator.ts';
import { startFakeHttp, type FakeServer } from '../fakes/fake-http.ts';
import { startSmtpServer, type FakeSmtpServer } from '../fakes/smtp.fake.ts';
import { bearer, createTestApp, ManualClock, type TestApp } from '../support/app.ts';
import { testDialects } from '../support/databases.ts';
import { createPerson, inSession, mailedToken, signIn, type Browser } from '../support/sessions.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON documents read back from the app
type Json = Record<string, any>;

const DOC_ID = 'https://tocsin.invalid/openapi.json';
const PASSWORD = 'documented password 1';
/** Not called, with the reason. */
const NOT_CALLED: Record<string, string> = {
  streamEvents: 'a Server-Sent Events stream never ends; test/http/events-stream.test.ts reads it',
  confirmStatusPageSubscriptionPage:
    'an HTML page behind the token of a mail; test/status-pages/status-pages.subscribers.test.ts opens it',
  unsubscribeStatusPageSubscriptionPage:
    'an HTML page behind the token of a mail; test/status-pages/status-pages.subscribers.test.ts opens it',
};

/** The schema of one documented response, its `#/components/…` references resolved against the document. */
function responseValidator(ajv: Ajv2020, schema: unknown): ValidateFunction {
  const text = JSON.stringify(schema).replaceAll('"#/components/', `"${DOC_ID}#/components/`);
  return ajv.compile(JSON.parse(text) as object);
}

describe.each(testDialects())('every documented GET response validates against its schema (%s)', (dialect) => {
  let t: TestApp;
  let doc: Json;
  let receiver: FakeServer;
  let smtp: FakeSmtpServer;
  let session: Browser;
  let key = '';
  const ids: Record<string, string> = {};
  const clock = new ManualClock(Date.parse('2026-11-24T10:00:00.000Z'));

  const call = async (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: Json) => {
    const res = await t.tocsin.app.inject({ method, url, headers: bearer(key), ...(payload && { payload }) });
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
    return res.json() as Json;
  };

  beforeAll(async () => {
    receiver = await startFakeHttp({}, () => ({ status: 200, body: { ok: true } }));
    smtp = await startSmtpServer();
    t = await createTestApp({
      dialect,
      clock,
      configFile: {
        smtp: smtp.url,
        // The Slack install link needs the app's credentials (nothing is called until someone follows it).
        providers: { chatapp1_channel: { client_id: 'client-id', client_secret: 'client-secret' } },
      },
    });
    doc = (await t.tocsin.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    const demo = await generateDemo(
      { services: t.tocsin.services, database: t.tocsin.database, clock, logger: t.tocsin.logger },
      {
        monitors: 4,
        days: 20,
        intervalSeconds: 600,
        now: clock.now(),
        seed: 7,
        organizationName: 'Documented',
        email: 'owner@example.com',
      },
    );
    clock.set(Date.parse('2026-11-24T10:00:00.000Z'));
    key = demo.api_key;
    ids.monitor = demo.monitor_ids[0]!;
    ids.sla = demo.sla_target_ids[0]!;
    ids.customReport = demo.custom_report_id;
    ids.execution = (await call('GET', `/api/v1/monitors/${ids.monitor}/executions?limit=1`)).data[0].id;
    const incidents = (await call('GET', '/api/v1/incidents?limit=1')).data as Json[];
    expect(incidents.length).toBe(1);
    ids.incident = incidents[0]!.id;
    const intelligence = (await call('GET', '/api/v1/intelligence/events?limit=1')).data as Json[];
    expect(intelligence.length, 'the demo history makes intelligence events').toBe(1);
    ids.intelligenceEvent = intelligence[0]!.id;

    const hook = await call('POST', '/api/v1/auth/organization/webhooks', {
      type: 'generic_webhook',
      name: 'Documented hook',
      config: { url: `${receiver.url}/hook` },
    });
    ids.destination = hook.id;
    ids.silence = (await call('POST', `/api/v1/monitors/${ids.monitor}/mute`, { minutes: 60 })).id;
    ids.statusPage = (
      await call('POST', '/api/v1/status-pages', {
        slug: 'documented',
        title: 'Documented',
        monitor_ids: demo.monitor_ids,
      })
    ).id;
    const page = (await call('GET', `/api/v1/status-pages/${ids.statusPage}`)) as Json;
    ids.slug = page.slug;
    ids.badgeToken = (await call('POST', `/api/v1/monitors/${ids.monitor}/badge`)).token;
    ids.notice = (
      await call('POST', `/api/v1/status-pages/${ids.statusPage}/notices`, {
        kind: 'incident',
        title: 'Documented notice',
        body: 'Looking into it.',
        published: true,
      })
    ).id;
    ids.heartbeat = String(
      (await call('POST', '/api/v1/monitors', { name: 'Nightly job', type: 'heartbeat', interval_seconds: 3600 }))
        .heartbeat_url,
    )
      .split('/')
      .at(-1)!;
    ids.heartbeatMonitor = (
      await call('POST', '/api/v1/monitors', {
        type: 'heartbeat',
        config: { slug: 'nightly', schedule: { cron: '30 2 * * *', timezone: 'Europe/Paris' } },
      })
    ).id;
    ids.pingKey = (await call('PATCH', '/api/v1/auth/organization/heartbeats', { ping_key: 'rotate' })).ping_key;
    ids.apiKey = (
      await call('POST', '/api/v1/api-keys', {
        name: 'Documented',
        scopes: ['monitors:read'],
        environments: ['production'],
      })
    ).id;
    ids.serviceAccount = (
      await call('POST', '/api/v1/service-accounts', { name: 'Documented bot', role: 'member' })
    ).id;

    ids.maintenanceWindow = (
      await call('POST', '/api/v1/maintenance-windows', {
        name: 'Sunday patching',
        monitor_ids: [ids.monitor],
        schedule: { type: 'recurring', rrule: 'FREQ=WEEKLY;BYDAY=SU', start_time: '03:00', duration_minutes: 90 },
        timezone: 'Europe/Berlin',
      })
    ).id;
    const schedule = await call('POST', '/api/v1/scheduled-reports', {
      report_type: 'availability',
      frequency: 'daily',
      time_of_day: '06:00',
      timezone: 'Europe/Berlin',
      destination_ids: [ids.destination],
    });
    ids.scheduledReport = schedule.id;
    await call('POST', `/api/v1/scheduled-reports/${schedule.id}/run`);
    expect(await t.tocsin.services.scheduledReports.runner.runDue()).toBe(1);
    await t.tocsin.services.alerting.pipeline.runUntilIdle();
    await t.tocsin.services.scheduledReports.runner.settleAll();
    const delivered = receiver.requests
      .map((r) => JSON.parse(r.rawBody) as Json)
      .find((b) => b.event === 'scheduled_report');
    expect(delivered, 'the scheduled report was delivered').toBeDefined();
    const file = new URL(delivered!.data.files.json.url as string);
    ids.reportFile = file.pathname.split('/').at(-1)!;
    ids.reportFileToken = file.searchParams.get('token')!;

    const { organization_id: organizationId } = demo;
    await createPerson(t, organizationId, 'owner', 'olga@example.com', PASSWORD);
    session = await signIn(t, 'olga@example.com', PASSWORD);
    const invited = await inSession(t, session, 'POST', '/api/v1/auth/organization/members', {
      body: { email: 'newbie@example.com', role: 'viewer' },
    });
    expect(invited.statusCode, invited.body).toBe(201);
    ids.invitation = mailedToken(smtp.messages, 'newbie@example.com', '/accept-invitation');
  }, 120_000);
  afterAll(async () => {
    t.tocsin.services.alerting.mailer.close();
    await t.close();
    await receiver.close();
    await smtp.close();
  });

  /** The URL each GET operation is called at, by operationId (query strings where one is required). */
  const urls = (): Record<string, string> => ({
    healthz: '/healthz',
    readyz: '/readyz',
    getOpenApiDocument: '/api/v1/openapi.json',
    listMonitors: '/api/v1/monitors',
    listMonitorSummaries: '/api/v1/monitors/summaries?sort=status&q=a',
    countMonitors: '/api/v1/monitors/counts?type=http',
    getMonitor: `/api/v1/monitors/${ids.monitor}`,
    listMonitorExecutions: `/api/v1/monitors/${ids.monitor}/executions?limit=5`,
    getExecution: `/api/v1/executions/${ids.execution}`,
    getMonitorHistory: `/api/v1/monitors/${ids.monitor}/history`,
    getMonitorsHistory: `/api/v1/monitors/history?monitor_ids=${ids.monitor}`,
    getMonitorsHistoryTotal: `/api/v1/monitors/history/total?resolution=day`,
    getIncidentsHistory: `/api/v1/incidents/history?resolution=day`,
    getMonitorPeriods: `/api/v1/monitors/${ids.monitor}/periods`,
    listIncidents: '/api/v1/incidents',
    getIncident: `/api/v1/incidents/${ids.incident}`,
    listIncidentDeliveries: `/api/v1/incidents/${ids.incident}/deliveries`,
    listStatusPages: '/api/v1/status-pages',
    getStatusPage: `/api/v1/status-pages/${ids.statusPage}`,
    listStatusPageSubscribers: `/api/v1/status-pages/${ids.statusPage}/subscribers`,
    publicStatusPage: `/status/${ids.slug}`,
    statuspageSummary: `/status/${ids.slug}/api/v2/summary.json`,
    statuspageStatus: `/status/${ids.slug}/api/v2/status.json`,
    statuspageComponents: `/status/${ids.slug}/api/v2/components.json`,
    statusPageBadgeSvg: `/status/${ids.slug}/badge.svg`,
    statusPageBadgeJson: `/status/${ids.slug}/badge.json`,
    getMonitorBadge: `/api/v1/monitors/${ids.monitor}/badge`,
    publicMonitorBadge: `/badge/${ids.badgeToken}/uptime.json?days=7`,
    listStatusPageNotices: `/api/v1/status-pages/${ids.statusPage}/notices`,
    getStatusPageNotice: `/api/v1/status-pages/${ids.statusPage}/notices/${ids.notice}`,
    statusPageAtomFeed: `/status/${ids.slug}/feed.atom`,
    statusPageRssFeed: `/status/${ids.slug}/feed.rss`,
    availabilityReport: '/api/v1/reports/availability',
    performanceReport: '/api/v1/reports/performance',
    slaReport: '/api/v1/reports/sla',
    incidentsReport: '/api/v1/reports/incidents',
    intelligenceReport: '/api/v1/reports/intelligence',
    monitorHealthReport: '/api/v1/reports/monitor-health',
    incidentsExport: '/api/v1/reports/incidents/export',
    listSlaTargets: '/api/v1/sla-targets',
    getSlaTarget: `/api/v1/sla-targets/${ids.sla}`,
    listMaintenanceWindows: '/api/v1/maintenance-windows',
    getMaintenanceWindow: `/api/v1/maintenance-windows/${ids.maintenanceWindow}`,
    getMonitorMaintenance: `/api/v1/monitors/${ids.monitor}/maintenance`,
    listSilences: '/api/v1/silences?include_ended=true',
    getSilence: `/api/v1/silences/${ids.silence}`,
    listScheduledReports: '/api/v1/scheduled-reports',
    getScheduledReport: `/api/v1/scheduled-reports/${ids.scheduledReport}`,
    listScheduledReportRuns: `/api/v1/scheduled-reports/${ids.scheduledReport}/runs`,
    getReportFile: `/api/v1/report-files/${ids.reportFile}?token=${encodeURIComponent(ids.reportFileToken!)}`,
    listCustomReports: '/api/v1/custom-reports',
    getCustomReport: `/api/v1/custom-reports/${ids.customReport}`,
    renderCustomReport: `/api/v1/custom-reports/${ids.customReport}/render`,
    listApiKeys: '/api/v1/api-keys',
    getApiKey: `/api/v1/api-keys/${ids.apiKey}`,
    getApiKeyUsage: `/api/v1/api-keys/${ids.apiKey}/usage`,
    listServiceAccounts: '/api/v1/service-accounts',
    getServiceAccount: `/api/v1/service-accounts/${ids.serviceAccount}`,
    listDestinations: '/api/v1/auth/organization/webhooks',
    startSlackInstall: '/api/v1/auth/organization/webhooks/slack/install',
    getDestination: `/api/v1/auth/organization/webhooks/${ids.destination}`,
    getOrganization: '/api/v1/auth/organization',
    listMembers: '/api/v1/auth/organization/members',
    getSetup: '/api/v1/auth/setup',
    listSessions: '/api/v1/auth/sessions',
    getSession: '/api/v1/auth/session',
    lookupInvitation: `/api/v1/auth/invitations/lookup?token=${encodeURIComponent(ids.invitation!)}`,
    listRegions: '/api/v1/regions',
    pingHeartbeatGet: `/api/v1/heartbeats/${ids.heartbeat}`,
    pingHeartbeatSignalGet: `/api/v1/heartbeats/${ids.heartbeat}/start?rid=r1`,
    pingHeartbeatSlugGet: `/api/v1/ping/${ids.pingKey}/nightly`,
    pingHeartbeatSlugSignalGet: `/api/v1/ping/${ids.pingKey}/nightly/0?rid=r1`,
    listMonitorPings: `/api/v1/monitors/${ids.heartbeatMonitor}/pings`,
    getHeartbeatSettings: '/api/v1/auth/organization/heartbeats',
    listIntelligenceEvents: '/api/v1/intelligence/events',
    getIntelligenceEvent: `/api/v1/intelligence/events/${ids.intelligenceEvent}`,
    getMonitorGrades: `/api/v1/monitors/${ids.monitor}/grades`,
    listIntelligenceCorrelations: '/api/v1/intelligence/correlations',
    listAuditLog: '/api/v1/audit-log',
    exportAuditLog: '/api/v1/audit-log/export',
    getConfigDocumentSchema: '/api/v1/config/schema.json',
  });

  it('calls every GET operation and finds each answer documented', async () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(ajv);
    ajv.addSchema({ $id: DOC_ID, components: doc.components });
    const table = urls();
    const operations: Array<{ id: string; op: Json }> = [];
    for (const item of Object.values(doc.paths as Json))
      if (item.get) operations.push({ id: item.get.operationId as string, op: item.get as Json });
    expect(operations.length).toBeGreaterThan(40);
    const problems: string[] = [];
    let validated = 0;
    for (const { id, op } of operations) {
      if (NOT_CALLED[id]) continue;
      const base = table[id];
      if (base === undefined) {
        problems.push(`${id}: not called by this test (add it to urls())`);
        continue;
      }
      // An operation with a `format` parameter is called in each of its formats (each its own media type).
      const format = (op.parameters as Json[] | undefined)?.find((p) => p.in === 'query' && p.name === 'format');
      const branches = (format?.schema?.anyOf ?? (format ? [format.schema] : [])) as Json[];
      const formats: Array<string | null> = format
        ? branches.flatMap((b) => (b.enum ?? [b.const]) as string[])
        : [null];
      expect(
        formats.every((f) => f !== undefined),
        id,
      ).toBe(true);
      for (const f of formats) {
        const url = f === null ? base : `${base}${base.includes('?') ? '&' : '?'}format=${f}`;
        await check(`${id}${f === null ? '' : ` (format=${f})`}`, op, url);
      }
    }
    expect(problems).toEqual([]);
    expect(validated).toBeGreaterThan(operations.length - Object.keys(NOT_CALLED).length);

    async function check(id: string, op: Json, url: string): Promise<void> {
      // Session-only operations go with the session; the rest with the demo's key.
      const sessionOnly = (op.security as Json[] | undefined)?.every((s) => 'sessionCookie' in s) ?? false;
      const res = sessionOnly
        ? await inSession(t, session, 'GET', url)
        : await t.tocsin.app.inject({ method: 'GET', url, headers: bearer(key) });
      const response = (op.responses as Json)[String(res.statusCode)] as Json | undefined;
      if (res.statusCode >= 400 || !response) {
        problems.push(`${id}: ${res.statusCode} ${res.body.slice(0, 300)}`);
        return;
      }
      const content = response.content as Json | undefined;
      if (!content) {
        if (res.body !== '') problems.push(`${id}: ${res.statusCode} has a body but the document says none`);
        return;
      }
      const type = String(res.headers['content-type'] ?? '')
        .split(';')[0]!
        .trim();
      const media = content[type] as Json | undefined;
      if (!media) {
        problems.push(`${id}: ${res.statusCode} answers ${type}; documented: ${Object.keys(content).join(', ')}`);
        return;
      }
      const body: unknown = type.endsWith('json') ? res.json() : res.body;
      const validate = responseValidator(ajv, media.schema);
      if (!validate(body)) {
        const errors = (validate.errors ?? []).slice(0, 5).map((e) => `${e.instancePath} ${e.message}`);
        problems.push(`${id}: ${res.statusCode} ${type} does not match its schema: ${errors.join('; ')}`);
      }
      validated += 1;
    }
  }, 120_000);

  it('fails a body that breaks its documented schema (the check is not empty)', () => {
    const ajv = new Ajv2020({ strict: false });
    addFormats.default(ajv);
    ajv.addSchema({ $id: DOC_ID, components: doc.components });
    const monitor = doc.paths['/api/v1/monitors/{id}'].get.responses['200'].content['application/json'].schema;
    const validate = responseValidator(ajv, monitor);
    expect(validate({ id: 42 })).toBe(false);
    const file = doc.paths['/api/v1/report-files/{id}'].get.responses['200'].content['application/json'].schema;
    expect(responseValidator(ajv, file)('a string is not a JSON report')).toBe(false);
  });
});
