/**
 * Two real `tocsin serve` processes on one PostgreSQL database: schedules that fell due while no process ran are each
 * run once at start-up (not once per process, not once per missed day), and run-now requests sent to both processes
 * at once give one run per request. Every run reaches the webhook once (one event, one delivery id).
 */
import type { ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { startWebhookReceiver, type WebhookReceiver } from '../fakes/index.ts';
import { testDialects, type TestDatabase } from '../support/databases.ts';
import { openSharedDatabase } from '../support/shared-database.ts';
import type { Tocsin } from '../../src/main.ts';
import { serve, until } from './serve.helpers.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies in assertions

const SCHEDULES = 12;
const MANUAL = 6;

describe.each(testDialects().filter((d) => d === 'postgres'))(
  'scheduled reports across two processes (%s)',
  (dialect) => {
    let db: TestDatabase | undefined;
    let tocsin: Tocsin | undefined;
    let receiver: WebhookReceiver | undefined;
    const children: ChildProcess[] = [];
    afterAll(async () => {
      for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
      await tocsin?.close();
      await db?.drop();
      await receiver?.close();
    });

    it('each due run and each run-now request is made once', { timeout: 120_000 }, async () => {
      const configFile = join(tmpdir(), `tocsin-srp-processes-${process.pid}.json`);
      writeFileSync(
        configFile,
        JSON.stringify({
          plans: { enterprise: { interval_floor_seconds: 1 } },
          alerting: { poll_ms: 50 },
          scheduled_reports: { lease_seconds: 30 },
        }),
      );
      const shared = await openSharedDatabase(dialect, { name: 'srp-processes', configFile });
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
      const dst = await call('POST', '/api/v1/auth/organization/webhooks', {
        type: 'generic_webhook',
        name: 'Reports',
        config: { url: receiver.webhookUrl },
      });
      expect(dst.status).toBe(201);
      secret.value = dst.body.signing_secret;
      const zones = ['Europe/Berlin', 'America/New_York', 'Asia/Kathmandu', 'Australia/Lord_Howe'];
      const ids: string[] = [];
      for (let i = 0; i < SCHEDULES; i++) {
        const res = await call('POST', '/api/v1/scheduled-reports', {
          report_type: i % 2 === 0 ? 'availability' : 'incidents',
          frequency: 'daily',
          time_of_day: '06:00',
          timezone: zones[i % zones.length],
          destination_ids: [dst.body.id],
        });
        expect(res.status).toBe(201);
        ids.push(res.body.id);
      }
      // They fell due three days ago, while no process was running.
      await sql`update scheduled_report set next_run_at = ${Date.now() - 3 * 86_400_000}`.execute(
        shared.db.database.tables<unknown>(),
      );

      const env = { ...shared.env, LOG_LEVEL: 'warn' };
      const [a, b] = await Promise.all([serve(env, children), serve(env, children)]);
      const byReport = () => {
        const counts = new Map<string, number>();
        for (const r of receiver!.verified()) {
          const id = (r.json as Json).data.scheduled_report_id as string;
          counts.set(id, (counts.get(id) ?? 0) + 1);
        }
        return counts;
      };
      await until('every missed schedule to run', () => receiver!.verified().length >= SCHEDULES, 60_000);

      // Run-now of the same schedules through both processes at the same moment.
      const manual = ids.slice(0, MANUAL);
      const answers = await Promise.all(
        manual.flatMap((id) => [
          a!.call(shared.apiKey, 'POST', `/api/v1/scheduled-reports/${id}/run`),
          b!.call(shared.apiKey, 'POST', `/api/v1/scheduled-reports/${id}/run`),
        ]),
      );
      expect(answers.map((r) => r.status)).toEqual(manual.flatMap(() => [202, 202]));
      await until(
        'the run-now requests to be delivered',
        () => receiver!.verified().length >= SCHEDULES + 2 * MANUAL,
        60_000,
      );
      // Nothing more arrives: no schedule ran twice.
      await new Promise((r) => setTimeout(r, 2_000));

      expect(receiver.verifications.every((v) => v.ok)).toBe(true);
      const events = receiver.verified().map((r) => (r.json as Json).id as string);
      expect(new Set(events).size).toBe(events.length);
      // One run per missed schedule and one per run-now request (two requests, two runs); none twice.
      const counts = byReport();
      for (const id of ids) expect(counts.get(id), id).toBe(manual.includes(id) ? 3 : 1);
      const runs = await sql<{ scheduled_report_id: string; n: string }>`
      select scheduled_report_id, count(*) as n from scheduled_report_run group by scheduled_report_id`.execute(
        shared.db.database.tables<unknown>(),
      );
      expect(runs.rows.reduce((n, r) => n + Number(r.n), 0)).toBe(SCHEDULES + 2 * MANUAL);

      await until('every run to be settled as delivered', async () => {
        const list = await call('GET', '/api/v1/scheduled-reports?limit=200');
        return (list.body.data as Json[]).every((s) => s.last_status === 'delivered');
      });
      const list = (await call('GET', '/api/v1/scheduled-reports?limit=200')).body.data as Json[];
      for (const s of list) {
        // Once, not three times, and the next run is the next 06:00 after now in the schedule's zone.
        expect(Date.parse(s.next_run_at)).toBeGreaterThan(Date.now() - 60_000);
        expect(Date.parse(s.next_run_at) - Date.now()).toBeLessThanOrEqual(86_400_000);
      }
      await a!.kill9();
      await b!.kill9();
    });
  },
);
