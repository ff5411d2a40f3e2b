/**
 * kill -9 during scheduled report runs (real `tocsin serve` processes, SQLite and PostgreSQL): a run-now request is
 * sent, the process is killed at a moment of the run (while it claims, renders, commits or delivers), a new process
 * starts. In the end every requested run was made exactly once: one run row, one outbox event, one delivery id per
 * destination (a delivery interrupted while sending may arrive again, with the same delivery id / Message-ID), and
 * every run is settled as delivered.
 */
import type { ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import type { Tocsin } from '../../src/main.ts';
import { startSmtpServer, startWebhookReceiver, type FakeSmtpServer, type WebhookReceiver } from '../fakes/index.ts';
import { testDialects, type TestDatabase } from '../support/databases.ts';
import { openSharedDatabase } from '../support/shared-database.ts';
import { serve, until, type Served } from './serve.helpers.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies in assertions

/** When the process is killed after the run-now request (ms): at once, while rendering, around the commit, later. */
const KILL_AFTER_MS = [0, 60, 250, 700, 1500];

// The dialects run at the same time, each with its own database, processes, receiver and mail server: most of a
// dialect's time is waiting (a process to start, a lease to expire, a delivery), which the other dialect's work fills.
describe.concurrent.each(testDialects())('kill -9 during scheduled report runs (%s)', (dialect) => {
  let db: TestDatabase | undefined;
  let tocsin: Tocsin | undefined;
  let receiver: WebhookReceiver | undefined;
  let smtp: FakeSmtpServer | undefined;
  const children: ChildProcess[] = [];
  afterAll(async () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await tocsin?.close();
    await db?.drop();
    await receiver?.close();
    await smtp?.close();
  });

  it('every requested run is made once and delivered', { timeout: 300_000 }, async () => {
    smtp = await startSmtpServer();
    const configFile = join(tmpdir(), `tocsin-srp-kill9-${dialect}-${process.pid}.json`);
    writeFileSync(
      configFile,
      JSON.stringify({
        plans: { enterprise: { interval_floor_seconds: 1 } },
        // The send time-out only ends a send that hangs, and the one hung send here is ended by the kill. A 2 s one also
        // ended sends to the in-test SMTP server (whose event loop the test shares) on a loaded machine, three times in
        // a row, and the retry steps after that (a minute, then five) outlast the wait for every run to settle.
        alerting: { poll_ms: 50, lease_seconds: 2, send_timeout_ms: 15_000 },
        scheduled_reports: { lease_seconds: 2 },
        smtp: smtp.url,
      }),
    );
    const shared = await openSharedDatabase(dialect, { name: `srp-kill9-${dialect}`, configFile });
    ({ db, tocsin } = shared);
    const secret = { value: '' };
    receiver = await startWebhookReceiver({
      get secret() {
        return secret.value;
      },
    } as { secret: string });
    const call = async (method: string, url: string, body?: unknown) => {
      const res = await tocsin!.app.inject({
        method: method as 'GET',
        url,
        headers: { authorization: `Bearer ${shared.apiKey}`, 'content-type': 'application/json' },
        ...(body !== undefined && { payload: JSON.stringify(body) }),
      });
      return { status: res.statusCode, body: res.json() as Json };
    };
    const hook = await call('POST', '/api/v1/auth/organization/webhooks', {
      type: 'generic_webhook',
      name: 'Reports hook',
      config: { url: receiver.webhookUrl },
    });
    secret.value = hook.body.signing_secret;
    const mail = await call('POST', '/api/v1/auth/organization/webhooks', {
      type: 'email',
      name: 'Reports mail',
      config: { address: 'reports@example.com' },
    });
    const schedule = await call('POST', '/api/v1/scheduled-reports', {
      report_type: 'availability',
      frequency: 'monthly',
      day_of_month: 1,
      time_of_day: '07:00',
      timezone: 'Europe/Berlin',
      destination_ids: [hook.body.id, mail.body.id],
    });
    expect(schedule.status).toBe(201);
    const id = schedule.body.id as string;

    const env = { ...shared.env, LOG_LEVEL: 'warn' };
    let current: Served = await serve(env, children);
    for (const [round, delay] of KILL_AFTER_MS.entries()) {
      // One round kills a process while it waits for the webhook's answer: the next request the receiver gets is never
      // answered, and the kill comes once it has arrived. (Killing after a fixed delay instead let a loaded machine send
      // the hung request from the next process, whose timeout then waits for the second retry step, 5 minutes.)
      const hangRound = round === 3;
      const requestsBefore = receiver.requests.length;
      if (hangRound) receiver.hangNext(1);
      const ran = await current.call(shared.apiKey, 'POST', `/api/v1/scheduled-reports/${id}/run`);
      expect(ran.status).toBe(202);
      await new Promise((r) => setTimeout(r, delay));
      if (hangRound)
        await until('the webhook request that hangs', () => receiver!.requests.length > requestsBefore, 60_000);
      await current.kill9();
      current = await serve(env, children);
    }

    const runs = KILL_AFTER_MS.length;
    const events = () => new Set(receiver!.verified().map((r) => (r.json as Json).id as string));
    const messageIds = () => new Set(smtp!.messages.map((m) => m.headers['message-id']));
    await until(
      'every requested run to reach both destinations',
      () => events().size >= runs && messageIds().size >= runs,
      90_000,
    );
    const runRows = async () =>
      (
        await sql<{ status: string; event_id: string }>`select status, event_id from scheduled_report_run`.execute(
          shared.db.database.tables<unknown>(),
        )
      ).rows;
    await until(
      'every run to be settled',
      async () => {
        const rows = await runRows();
        return rows.length === runs && rows.every((r) => r.status === 'delivered');
      },
      // A delivery claimed by a killed process is taken over once its lease (2 s) has expired.
      90_000,
    ).catch(async (err: Error) => {
      const deliveries = await sql`select event_id, status, attempts, last_error from delivery`.execute(
        shared.db.database.tables<unknown>(),
      );
      throw new Error(`${err.message}: ${JSON.stringify({ runs: await runRows(), deliveries: deliveries.rows })}`);
    });
    // Nothing more arrives afterwards.
    await new Promise((r) => setTimeout(r, 1_500));

    expect(receiver.verifications.every((v) => v.ok)).toBe(true);
    expect(events().size).toBe(runs);
    expect(messageIds().size).toBe(runs);
    // A resend (the process died before it recorded the answer) carries the same delivery id.
    const deliveryIds = new Map<string, Set<string>>();
    for (const r of receiver.verified()) {
      const event = (r.json as Json).id as string;
      deliveryIds.set(event, (deliveryIds.get(event) ?? new Set()).add(String(r.headers['x-service-delivery'])));
    }
    for (const [, ids] of deliveryIds) expect(ids.size).toBe(1);
    const rows = await sql<{ n: string }>`select count(*) as n from scheduled_report_run`.execute(
      shared.db.database.tables<unknown>(),
    );
    expect(Number(rows.rows[0]!.n)).toBe(runs);
    const files = await sql<{ n: string }>`select count(*) as n from report_file`.execute(
      shared.db.database.tables<unknown>(),
    );
    expect(Number(files.rows[0]!.n)).toBe(3 * runs);
    const after = await call('GET', `/api/v1/scheduled-reports/${id}`);
    expect(after.body).toMatchObject({ last_status: 'delivered', next_run_at: schedule.body.next_run_at });
    // Every mail attaches the PDF and the CSV.
    for (const m of smtp.messages) {
      expect(m.raw).toMatch(/Content-Type: application\/pdf/i);
      expect(m.raw).toMatch(/Content-Type: text\/csv/i);
    }
    await current.kill9();
  });
});
