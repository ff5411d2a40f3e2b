import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../api-access/helpers.ts';
import { ManualClock } from '../../src/platform/clock.ts';
import { createTestApp, type TestApp, type TestOrg } from '../support/app.ts';
import { testDialects } from '../support/databases.ts';
import { browserOf, createPerson, inSession, signIn, type Browser } from '../support/sessions.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- the OpenAPI document and bodies
const MUTATING = ['post', 'put', 'patch', 'delete'];

/**
 * Mutating operations that record nothing, each with the reason. Everything else in the OpenAPI document must
 * appear in the table below and leave an entry.
 */
const NOT_RECORDED: Record<string, string> = {
  parseOpenApi: 'reads a document and answers; stores nothing',
  discoverGrpc: 'asks a server for its services; stores nothing',
  requestPasswordReset: 'anonymous; mails a link and changes no setting (its use is recorded: user.password_reset)',
  claimRunnerChecks: 'a runner’s machine traffic (check leases), not a change made by a person',
  reportRunnerResults: 'a runner’s check results: monitoring data, not a change',
  runnerHeartbeat: 'a runner saying it is alive',
  pingHeartbeat: 'a heartbeat ping: monitoring data, not a change',
  pingHeartbeatSignal: 'a heartbeat signal (start, fail, log, exit code): monitoring data, not a change',
  pingHeartbeatSlug:
    'a heartbeat ping by slug: monitoring data (a monitor ?create=1 makes is recorded: monitor.create)',
  pingHeartbeatSlugSignal: 'a heartbeat signal by slug: monitoring data (?create=1 records monitor.create)',
  previewMaintenanceWindow: 'answers which monitors a window would cover; stores nothing',
  previewHeartbeatSchedule: 'answers when a heartbeat schedule expects its next pings; stores nothing',
  planConfig: 'answers what applying a document would change; stores nothing (apply records each change)',
  unlockStatusPage: 'a visitor opening a password-protected status page: a signed cookie, nothing stored',
  subscribeToStatusPage: 'a visitor of a public page asks for mails: no actor of the organization',
  confirmStatusPageSubscription: 'a visitor follows the link of their confirmation mail',
  unsubscribeStatusPageSubscription: 'a subscriber leaves by the link of a mail (RFC 8058)',
};

describe.each(testDialects())('every change through the API is in the audit log (%s)', (dialect) => {
  let t: TestApp;
  let org: TestOrg;
  let setupOrganizationId: string;
  const ids: Record<string, string> = {};
  let owner: Browser;

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    // First run happens before any organization exists.
    const setup = await inSession(t, null, 'POST', '/api/v1/auth/setup', {
      body: { organization_name: 'First', name: 'Fay', email: 'fay@example.com', password: 'first password 1' },
    });
    expect(setup.statusCode, setup.body).toBe(201);
    setupOrganizationId = (setup.json() as Json).organization.id as string;
    org = await t.createOrg();
    await createPerson(t, org.organizationId, 'owner', 'olga@example.com', 'owner password 1');
    owner = await signIn(t, 'olga@example.com', 'owner password 1');
  });
  afterAll(async () => {
    await t.close();
  });

  const key = (method: string, url: string, body?: unknown) =>
    call(t, org.apiKey, method, url, body === undefined ? {} : { body });
  const created = (res: LightMyRequestResponse, name: string): void => {
    expect(res.statusCode, `${name}: ${res.body}`).toBeLessThan(300);
    const id = (res.json() as Json).id;
    if (typeof id === 'string') ids[name] = id;
  };

  /** A one-off window in progress (so that it can be ended now). */
  const windowNow = (monitorId: string) => {
    const now = t.clock.now();
    return {
      name: 'Patching',
      monitor_ids: [monitorId],
      schedule: {
        type: 'once',
        starts_at: new Date(now - 60_000).toISOString(),
        ends_at: new Date(now + 3_600_000).toISOString(),
      },
      timezone: 'UTC',
    };
  };

  /** operationId → the call, and the action its entry has. Runs in this order (later rows use earlier ids). */
  const TABLE: Array<[string, string, () => Promise<LightMyRequestResponse>]> = [
    ['setup', 'organization.setup', async () => ({ statusCode: 201 }) as LightMyRequestResponse],
    ['createMonitor', 'monitor.create', () => key('POST', '/api/v1/monitors', MONITOR)],
    ['updateMonitor', 'monitor.update', () => key('PATCH', `/api/v1/monitors/${ids.monitor}`, { name: 'Renamed' })],
    ['pauseMonitor', 'monitor.pause', () => key('POST', `/api/v1/monitors/${ids.monitor}/pause`)],
    ['resumeMonitor', 'monitor.resume', () => key('POST', `/api/v1/monitors/${ids.monitor}/resume`)],
    ['importOpenApi', 'monitor.create', () => key('POST', '/api/v1/monitors/openapi/import', IMPORT)],
    ['createIncident', 'incident.create', () => key('POST', '/api/v1/incidents', { title: 'Checkout errors' })],
    ['acknowledgeIncident', 'incident.acknowledge', () => key('POST', `/api/v1/incidents/${ids.incident}/acknowledge`)],
    ['resolveIncident', 'incident.resolve', () => key('POST', `/api/v1/incidents/${ids.incident}/resolve`)],
    ['createStatusPage', 'status_page.create', () => key('POST', '/api/v1/status-pages', PAGE(ids.monitor!))],
    [
      'updateStatusPage',
      'status_page.update',
      () => key('PATCH', `/api/v1/status-pages/${ids.page}`, { title: 'New' }),
    ],
    [
      'createStatusPageNotice',
      'status_page_notice.create',
      () => key('POST', `/api/v1/status-pages/${ids.page}/notices`, { kind: 'incident', title: 'Slow checkout' }),
    ],
    [
      'addStatusPageNoticeUpdate',
      'status_page_notice.add_update',
      () =>
        key('POST', `/api/v1/status-pages/${ids.page}/notices/${ids.notice}/updates`, {
          status: 'identified',
          body: 'A bad deploy.',
        }),
    ],
    [
      'updateStatusPageNotice',
      'status_page_notice.update',
      () => key('PATCH', `/api/v1/status-pages/${ids.page}/notices/${ids.notice}`, { published: true }),
    ],
    [
      'deleteStatusPageNotice',
      'status_page_notice.delete',
      () => key('DELETE', `/api/v1/status-pages/${ids.page}/notices/${ids.notice}`),
    ],
    [
      'createStatusPageWebhookSubscriber',
      'status_subscriber.create',
      () => key('POST', `/api/v1/status-pages/${ids.page}/subscribers`, { url: 'https://hooks.example.com/status' }),
    ],
    [
      'deleteStatusPageSubscriber',
      'status_subscriber.delete',
      async () => {
        const list = await key('GET', `/api/v1/status-pages/${ids.page}/subscribers`);
        const sid = (list.json() as Json).data[0].id as string;
        return key('DELETE', `/api/v1/status-pages/${ids.page}/subscribers/${sid}`);
      },
    ],
    ['deleteStatusPage', 'status_page.delete', () => key('DELETE', `/api/v1/status-pages/${ids.page}`)],
    ['createSlaTarget', 'sla_target.create', () => key('POST', '/api/v1/sla-targets', SLA(ids.monitor!))],
    ['updateSlaTarget', 'sla_target.update', () => key('PATCH', `/api/v1/sla-targets/${ids.sla}`, { name: 'B' })],
    ['deleteSlaTarget', 'sla_target.delete', () => key('DELETE', `/api/v1/sla-targets/${ids.sla}`)],
    ['createDestination', 'destination.create', () => key('POST', WEBHOOKS, DESTINATION)],
    [
      'updateDestination',
      'destination.update',
      () => key('PATCH', `${WEBHOOKS}/${ids.destination}`, { name: 'Ops 2' }),
    ],
    ['testDestination', 'destination.test', () => key('POST', `${WEBHOOKS}/${ids.destination}/test`)],
    ['createScheduledReport', 'scheduled_report.create', () => key('POST', SCHEDULED, WEEKLY(ids.destination!))],
    [
      'updateScheduledReport',
      'scheduled_report.update',
      () => key('PATCH', `${SCHEDULED}/${ids.scheduled}`, { time_of_day: '09:00' }),
    ],
    ['runScheduledReport', 'scheduled_report.run', () => key('POST', `${SCHEDULED}/${ids.scheduled}/run`)],
    ['deleteScheduledReport', 'scheduled_report.delete', () => key('DELETE', `${SCHEDULED}/${ids.scheduled}`)],
    ['deleteDestination', 'destination.delete', () => key('DELETE', `${WEBHOOKS}/${ids.destination}`)],
    ['createCustomReport', 'custom_report.create', () => key('POST', '/api/v1/custom-reports', CUSTOM)],
    [
      'updateCustomReport',
      'custom_report.update',
      () => key('PATCH', `/api/v1/custom-reports/${ids.custom}`, { name: 'B' }),
    ],
    ['deleteCustomReport', 'custom_report.delete', () => key('DELETE', `/api/v1/custom-reports/${ids.custom}`)],
    [
      'createApiKey',
      'api_key.create',
      () => key('POST', '/api/v1/api-keys', { name: 'ci', scopes: ['monitors:read'] }),
    ],
    [
      'rotateApiKey',
      'api_key.rotate',
      () => key('POST', `/api/v1/api-keys/${ids.apiKey}/rotate`, { grace_seconds: 0 }),
    ],
    ['revokeApiKey', 'api_key.revoke', () => key('DELETE', `/api/v1/api-keys/${ids.apiKey}`)],
    [
      'createServiceAccount',
      'service_account.create',
      () => key('POST', '/api/v1/service-accounts', { name: 'robot', role: 'member' }),
    ],
    [
      'deleteServiceAccount',
      'service_account.delete',
      () => key('DELETE', `/api/v1/service-accounts/${ids.serviceAccount}`),
    ],
    [
      'updateOrganization',
      'organization.update',
      () => key('PATCH', '/api/v1/auth/organization', { email_alerts_enabled: false }),
    ],
    [
      'updateHeartbeatSettings',
      'heartbeat_settings.rotate_ping_key',
      () => key('PATCH', '/api/v1/auth/organization/heartbeats', { ping_key: 'rotate' }),
    ],
    [
      'inviteMember',
      'invitation.create',
      () => key('POST', '/api/v1/auth/organization/members', { email: 'ivy@example.com' }),
    ],
    [
      'resendInvitation',
      'invitation.resend',
      async () => key('POST', `/api/v1/auth/organization/invitations/${await invitationId()}/resend`),
    ],
    [
      'revokeInvitation',
      'invitation.revoke',
      async () => key('DELETE', `/api/v1/auth/organization/invitations/${await invitationId()}`),
    ],
    [
      'resendVerification',
      'member.verification_resend',
      async () => key('POST', `/api/v1/auth/organization/members/${await unverifiedMember()}/resend-verification`),
    ],
    [
      'changeMemberRole',
      'member.role_change',
      async () => key('PATCH', `/api/v1/auth/organization/members/${await unverifiedMember()}`, { role: 'admin' }),
    ],
    [
      'acceptInvitation',
      'invitation.accept',
      async () =>
        inSession(t, null, 'POST', '/api/v1/auth/invitations/accept', {
          body: { token: await invitationToken(), name: 'Nia', password: 'new member password 1' },
        }),
    ],
    [
      'signIn',
      'session.sign_in',
      () =>
        inSession(t, null, 'POST', '/api/v1/auth/sessions', {
          body: { email: 'olga@example.com', password: 'owner password 1' },
        }),
    ],
    [
      'endSession',
      'session.end',
      async () => inSession(t, owner, 'DELETE', `/api/v1/auth/sessions/${await otherSession()}`),
    ],
    [
      'confirmPasswordReset',
      'user.password_reset',
      async () =>
        inSession(t, null, 'POST', '/api/v1/auth/password-reset/confirm', {
          body: { token: await resetToken(), password: 'owner password 2' },
        }),
    ],
    [
      'signOut',
      'session.sign_out',
      async () =>
        inSession(
          t,
          browserOf(
            await inSession(t, null, 'POST', '/api/v1/auth/sessions', {
              body: { email: 'olga@example.com', password: 'owner password 2' },
            }),
          ),
          'DELETE',
          '/api/v1/auth/session',
        ),
    ],
    ['createMaintenanceWindow', 'maintenance_window.create', () => key('POST', MAINTENANCE, windowNow(ids.monitor!))],
    [
      'updateMaintenanceWindow',
      'maintenance_window.update',
      () => key('PATCH', `${MAINTENANCE}/${ids.maintenance}`, { name: 'Database patching' }),
    ],
    ['endMaintenanceWindow', 'maintenance_window.end', () => key('POST', `${MAINTENANCE}/${ids.maintenance}/end`)],
    ['deleteMaintenanceWindow', 'maintenance_window.delete', () => key('DELETE', `${MAINTENANCE}/${ids.maintenance}`)],
    [
      'createSilence',
      'silence.create',
      () =>
        key('POST', SILENCES, {
          matchers: { monitor_ids: [ids.monitor] },
          ends_at: new Date(t.clock.now() + 3_600_000).toISOString(),
          comment: 'Deploying',
        }),
    ],
    ['endSilence', 'silence.end', () => key('POST', `${SILENCES}/${ids.silence}/end`)],
    ['deleteSilence', 'silence.delete', () => key('DELETE', `${SILENCES}/${ids.silence}`)],
    ['muteMonitor', 'silence.create', () => key('POST', `/api/v1/monitors/${ids.monitor}/mute`, { minutes: 30 })],
    ['createMonitorBadge', 'monitor_badge.create', () => key('POST', `/api/v1/monitors/${ids.monitor}/badge`)],
    ['revokeMonitorBadge', 'monitor_badge.revoke', () => key('DELETE', `/api/v1/monitors/${ids.monitor}/badge`)],
    [
      'applyConfig',
      'monitor.create',
      () =>
        key('POST', '/api/v1/config/apply', {
          document: { version: 1, monitors: [{ key: 'from-config', target: 'https://config.example.com' }] },
        }),
    ],
    [
      'adoptConfig',
      'config.adopt',
      async () => {
        const made = await key('POST', '/api/v1/monitors', { target: 'https://adopted.example.com', name: 'Adopted' });
        const id = (made.json() as Json).id as string;
        return key('POST', '/api/v1/config/adopt', {
          document: { version: 1, monitors: [{ key: 'adopted', target: 'https://adopted.example.com' }] },
          items: [{ kind: 'monitors', key: 'adopted', item_id: id }],
        });
      },
    ],
    ['deleteMonitor', 'monitor.delete', () => key('DELETE', `/api/v1/monitors/${ids.monitor}`)],
  ];
  const NAMES: Record<string, string> = {
    createMonitor: 'monitor',
    createMaintenanceWindow: 'maintenance',
    createSilence: 'silence',
    createIncident: 'incident',
    createStatusPage: 'page',
    createStatusPageNotice: 'notice',
    createSlaTarget: 'sla',
    createDestination: 'destination',
    createScheduledReport: 'scheduled',
    createCustomReport: 'custom',
    createApiKey: 'apiKey',
    createServiceAccount: 'serviceAccount',
  };

  async function invitationId(): Promise<string> {
    const [invitation] = await t.tocsin.services.orgs.listInvitations(org.organizationId);
    return invitation!.id;
  }
  async function invitationToken(): Promise<string> {
    const issued = await t.tocsin.services.orgs.createInvitation({
      organizationId: org.organizationId,
      email: 'nia@example.com',
      name: null,
      role: 'member',
      invitedBy: org.userId,
    });
    return issued.token;
  }
  async function unverifiedMember(): Promise<string> {
    if (ids.unverified) return ids.unverified;
    const user = await t.tocsin.services.orgs.ensureUser({ email: 'una@example.com' });
    await t.tocsin.services.orgs.addMember(org.organizationId, user.id, 'member');
    return (ids.unverified = user.id);
  }
  async function otherSession(): Promise<string> {
    const list = (await inSession(t, owner, 'GET', '/api/v1/auth/sessions')).json() as Json;
    return (list.data as Json[]).find((s) => !s.current)!.id as string;
  }
  async function resetToken(): Promise<string> {
    const issued = await t.tocsin.services.sessions.createResetLink('olga@example.com');
    return new URL(issued!.link).searchParams.get('token')!;
  }
  async function count(organizationId: string, action: string): Promise<number> {
    return (await t.tocsin.services.audit.list(organizationId, { action }, { limit: 200 })).data.length;
  }

  it('covers every mutating operation of the OpenAPI document (recorded, or listed with a reason)', async () => {
    const doc = (await t.tocsin.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json() as Json;
    const operations: string[] = [];
    for (const item of Object.values(doc.paths as Json)) {
      for (const method of MUTATING) {
        const op = (item as Json)[method] as Json | undefined;
        if (op) operations.push(op.operationId as string);
      }
    }
    const covered = new Set([...TABLE.map(([op]) => op), ...Object.keys(NOT_RECORDED)]);
    expect(operations.filter((op) => !covered.has(op))).toEqual([]);
    expect([...covered].filter((op) => !operations.includes(op))).toEqual([]);
  });

  // Some 70 operations one after the other, each with its reads: minutes on a loaded 2-CPU machine.
  it('each operation leaves its entry', { timeout: 240_000 }, async () => {
    const missing: string[] = [];
    for (const [op, action, run] of TABLE) {
      (t.clock as ManualClock).advance(1000);
      const organizationId = op === 'setup' ? setupOrganizationId : org.organizationId;
      // Setup ran first of all (in beforeAll, before any organization existed): its entry is the only one.
      const before = op === 'setup' ? 0 : await count(organizationId, action);
      const res = await run();
      expect(res.statusCode, `${op}: ${res.statusCode} ${res.body}`).toBeLessThan(300);
      if (NAMES[op]) created(res, NAMES[op]);
      if ((await count(organizationId, action)) <= before) missing.push(`${op} → ${action}`);
    }
    expect(missing).toEqual([]);
  });
});

const WEBHOOKS = '/api/v1/auth/organization/webhooks';
const MAINTENANCE = '/api/v1/maintenance-windows';
const SILENCES = '/api/v1/silences';
const SCHEDULED = '/api/v1/scheduled-reports';
const MONITOR = { name: 'Checkout', target: 'https://checkout.example.com/health', interval_seconds: 60 };
const DESTINATION = { type: 'email', name: 'Ops', config: { address: 'ops@example.com' } };
const PAGE = (monitorId: string) => ({ slug: 'audit-page', title: 'Status', monitor_ids: [monitorId] });
const SLA = (monitorId: string) => ({ name: 'A', monitor_ids: [monitorId], target_percent: 99.9, period: 'monthly' });
const WEEKLY = (destinationId: string) => ({
  report_type: 'availability',
  frequency: 'weekly',
  day_of_week: 1,
  time_of_day: '08:00',
  timezone: 'Europe/Berlin',
  destination_ids: [destinationId],
});
const CUSTOM = {
  name: 'Weekly',
  period: { from: '2026-05-01T00:00:00Z', to: '2026-05-02T00:00:00Z' },
  widgets: [{ kind: 'availability', title: 'Uptime' }],
};
const IMPORT = {
  operations: [{ operation_id: 'health', monitor: { ...MONITOR, name: 'Imported' } }],
  operation_ids: ['health'],
};
