/**
 * kill -9 in the middle of a fan-out to status page subscribers (real `tocsin serve` processes, a real SMTP server,
 * SQLite and PostgreSQL). Notices are published (the notices code's listener, called in a transaction here) to a
 * page with SUBSCRIBERS confirmed subscribers; a process starts, is killed at a moment of its fan-out or its sends,
 * another starts; after the last kill two processes finish together. In the end every subscriber got every notice,
 * each under one Message-ID (a mail interrupted while it was sent may arrive again, with the same Message-ID), and
 * there is one delivery row per subscriber and notice.
 */
import type { ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import type { Tocsin } from '../../src/main.ts';
import { startSmtpServer, type FakeSmtpServer } from '../fakes/index.ts';
import { testDialects, type TestDatabase } from '../support/databases.ts';
import { openSharedDatabase } from '../support/shared-database.ts';
import { serve, until, type Served } from '../scheduled-reports/serve.helpers.ts';

/**
 * More than one fan-out transaction's worth (500 each), so a kill can fall between them; each round's sends still
 * outlast its kill (6 s at a process's 100 mails a second). 1,100 made the file the suite's slowest (140 s of CPU).
 */
const SUBSCRIBERS = 600;
/**
 * When each process is killed (ms). Even rounds publish before the process starts (it fans out as it starts, and is
 * killed while sending); odd rounds publish once it listens (its next pass, within a second, fans out), so the kill
 * may fall between the fan-out's transactions.
 */
const KILL_AFTER_MS = [0, 600, 400, 900, 1800, 1100, 150];

// The dialects run at the same time, each with its own SMTP server, database and processes: most of a dialect's time
// is its processes' sends, which each process paces itself (100 a second), so the two overlap instead of queuing.
describe.concurrent.each(testDialects())('kill -9 during a fan-out to status page subscribers (%s)', (dialect) => {
  let db: TestDatabase | undefined;
  let tocsin: Tocsin | undefined;
  let smtp: FakeSmtpServer | undefined;
  const children: ChildProcess[] = [];
  afterAll(async () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await tocsin?.close();
    await db?.drop();
    await smtp?.close();
  });

  // A bound for hangs: nine process starts (each bounded in serve()) and the sends below (bounded by their progress);
  // on the 2-core machine at load 20–28 starts took 20–120 s each.
  it('every subscriber gets every notice, under one Message-ID', { timeout: 1_500_000 }, async () => {
    smtp = await startSmtpServer();
    const configFile = join(tmpdir(), `tocsin-subs-kill9-${dialect}-${process.pid}.json`);
    writeFileSync(
      configFile,
      JSON.stringify({
        // The send time-out only ends a send that hangs; the kills here end theirs. A 2 s one ended sends to the
        // in-test SMTP server (whose event loop the test shares) on a loaded machine in the scheduled-reports kill -9
        // test, and the retry steps after a failed send (a minute, then five) outlast a test's wait.
        alerting: { poll_ms: 50, lease_seconds: 2, send_timeout_ms: 15_000 },
        smtp: smtp.url,
        public_url: 'https://status.example.com',
      }),
    );
    const shared = await openSharedDatabase(dialect, { name: `subs-kill9-${dialect}`, configFile });
    ({ db, tocsin } = shared);
    const { statusPages, statusSubscribers } = tocsin.services;
    const owner = await tocsin.app.inject({
      method: 'POST',
      url: '/api/v1/status-pages',
      headers: { authorization: `Bearer ${shared.apiKey}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ slug: 'kill9-subs', title: 'Kill9', subscriptions_enabled: true }),
    });
    expect(owner.statusCode).toBe(201);
    const pageId = owner.json().id as string;
    void statusPages;
    // Subscribers through the public sign-up (one client address each); confirmed here, their links unsent. Eight
    // sign-ups at a time (each its own transaction), as concurrent visitors would.
    const signUps = Array.from({ length: SUBSCRIBERS }, (_, i) => i);
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        for (let i = signUps.shift(); i !== undefined; i = signUps.shift())
          await statusSubscribers.subscribe(
            'kill9-subs',
            `s${i}@example.com`,
            `10.0.${Math.floor(i / 250)}.${i % 250}`,
          );
      }),
    );
    const kysely = tocsin.database.tables<any>(); // eslint-disable-line @typescript-eslint/no-explicit-any -- fixture rows
    await sql`update status_subscriber set confirmed_at = 1, confirm_token_hash = null`.execute(kysely);
    await sql`delete from status_delivery`.execute(kysely);

    const publish = (round: number) =>
      tocsin!.database.transaction((tx) =>
        statusSubscribers.noticePublished(tx, {
          organizationId: shared.organizationId,
          statusPageId: pageId,
          noticeId: `ntc_${String(round).padStart(26, '0')}`,
          updateId: null,
          kind: 'incident',
          title: `Notice ${round}`,
          impact: 'minor',
          status: 'investigating',
          bodyMarkdown: `Round ${round}.`,
          publishedAt: new Date(),
        }),
      );

    const env = { ...shared.env, LOG_LEVEL: 'warn' };
    const killedDuring: string[] = [];
    for (const [round, delay] of KILL_AFTER_MS.entries()) {
      if (round % 2 === 0) await publish(round);
      const current: Served = await serve(env, children);
      if (round % 2 === 1) await publish(round);
      await new Promise((r) => setTimeout(r, delay));
      await current.kill9();
      const made = await sql<{ n: string }>`select count(*) as n from status_delivery`.execute(kysely);
      killedDuring.push(`${delay} ms: ${made.rows[0]!.n} deliveries, ${smtp.messages.length} mails`);
    }
    // Two processes finish the backlog (each paces its sends at 100 a second; one took ~75 s of the file's time per
    // dialect): the deliveries the killed processes left are leased by either, so each still arrives once.
    const last = await Promise.all([serve(env, children), serve(env, children)]);
    const rounds = KILL_AFTER_MS.length;
    /** Message-IDs per (subscriber, subject). */
    const received = () => {
      const ids = new Map<string, Set<string>>();
      for (const m of smtp!.messages) {
        const key = `${m.to[0]}|${m.subject}`;
        ids.set(key, (ids.get(key) ?? new Set()).add(m.headers['message-id']!));
      }
      return ids;
    };
    // Bounded by progress, not by a total: the sends' speed is the machine's (at load 15–20 the two dialects' four
    // processes sent 20–30 a second, not 400), but a delivery left by a killed process is leased again within
    // lease_seconds (2 s) and a pass runs at least every second, so 60 s without a new mail is a stall.
    let lastCount = -1;
    let lastProgress = Date.now();
    await until(
      'every notice to reach every subscriber',
      () => {
        const count = smtp!.messages.length;
        if (count !== lastCount) [lastCount, lastProgress] = [count, Date.now()];
        else if (Date.now() - lastProgress > 60_000) throw new Error('no new mail for 60 s');
        return received().size >= SUBSCRIBERS * rounds;
      },
      1_200_000,
    ).catch((err: Error) => {
      throw new Error(`${err.message} (${received().size} of ${SUBSCRIBERS * rounds}; ${killedDuring.join('; ')})`);
    });
    const settled = async () =>
      (
        await sql<{
          status: string;
          n: string;
        }>`select status, count(*) as n from status_delivery group by status`.execute(kysely)
      ).rows.map((r) => ({ status: r.status, n: Number(r.n) }));
    await until('every delivery to be settled', async () => {
      const rows = await settled();
      return rows.length === 1 && rows[0]!.status === 'sent';
    });
    // Nothing more arrives afterwards.
    await new Promise((r) => setTimeout(r, 1_500));
    await Promise.all(last.map((p) => p.kill9()));

    expect(await settled()).toEqual([{ status: 'sent', n: SUBSCRIBERS * rounds }]);
    const ids = received();
    expect(ids.size).toBe(SUBSCRIBERS * rounds);
    for (const [, set] of ids) expect(set.size).toBe(1);
    const allIds = new Set([...ids.values()].flatMap((s) => [...s]));
    expect(allIds.size).toBe(SUBSCRIBERS * rounds);
    // Every mail can be unsubscribed from in one click.
    for (const m of smtp.messages.slice(0, 50)) {
      expect(m.headers['list-unsubscribe']).toMatch(
        /^<https:\/\/status\.example\.com\/status\/kill9-subs\/unsubscribe\?token=/,
      );
      expect(m.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    }
    // Duplicates only from sends cut off by a kill: at most the in-flight sends of each killed process.
    expect(smtp.messages.length - SUBSCRIBERS * rounds).toBeLessThanOrEqual(8 * rounds);
    console.log(`subscribers kill -9 (${dialect}): ${killedDuring.join('; ')}; ${smtp.messages.length} mails`);
  });
});
