/**
 * Status-page subscriber fan-out (issue 32, speed): one notice update to N confirmed email subscribers, sent by a
 * real `tocsin serve` (every role, SQLite) to a real SMTP server on loopback (test/fakes' smtp-server based one),
 * while M http monitors on loopback (bench/engine's targets) are checked, so check lateness can be read back from
 * the stored executions (bench/engine's slotsFromExecutions) before and during the fan-out.
 *   node bench/status-pages/fan-out.bench.ts [--subscribers 10000] [--monitors 1000] [--interval 30]
 *        [--baseline-seconds 60] [--timeout-seconds 600]
 * Set-up (before serve starts, in this process): the organization, monitors, a page with subscriptions and one
 * published notice go through the services and the API (app.inject); the subscribers go through the public
 * subscribe path (SubscribersService.subscribe, the code POST /status/{slug}/subscribe runs, each from its own client
 * address), then are confirmed directly in the table and their confirmation deliveries dropped — the double opt-in
 * itself is not what is measured, and 10,000 confirmation mails would be. Then serve runs: a baseline window, then
 * POST /api/v1/status-pages/{id}/notices/{nid}/updates over HTTP, and the time until the SMTP server accepted every
 * subscriber's mail; unique Message-IDs and recipients are counted (nothing lost, nothing twice).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { fork, type ChildProcess } from 'node:child_process';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { loadConfig } from '../../src/config/index.ts';
import { createTocsin } from '../../src/main.ts';
import { SCOPES } from '../../src/modules/auth/index.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { startSmtpServer } from '../../test/fakes/smtp.fake.ts';
import { slotsFromExecutions } from '../engine/slots.from-executions.ts';
import { cpuMsOf, startServe, stopAll } from '../engine/scale-out.processes.ts';
import { SERVICE_NODE_FLAGS } from '../support/service-flags.ts';

const { values: args } = parseArgs({
  options: {
    subscribers: { type: 'string', default: '10000' },
    monitors: { type: 'string', default: '1000' },
    interval: { type: 'string', default: '30' },
    'baseline-seconds': { type: 'string', default: '60' },
    'timeout-seconds': { type: 'string', default: '600' },
  },
});
const SUBSCRIBERS = Number(args.subscribers);
const MONITORS = Number(args.monitors);
const INTERVAL_S = Number(args.interval);
const BASELINE_MS = Number(args['baseline-seconds']) * 1000;
const TIMEOUT_MS = Number(args['timeout-seconds']) * 1000;
const SLUG = 'bench-fan-out';
// BENCH_CPU_PROF=<dir>: a V8 CPU profile of the serve process, written when it stops.
const nodeFlags = [
  '--max-old-space-size=512',
  ...SERVICE_NODE_FLAGS,
  ...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : []),
];

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
const latenessFigures = (l: number[]) => ({ checks: l.length, p50: pct(l, 50), p99: pct(l, 99), max: l.at(-1) });
const log = (s: string) => process.stderr.write(`${new Date().toISOString()} ${s}\n`);

const dataDir = mkdtempSync(join(tmpdir(), 'tocsin-bench-fan-out-'));
const configPath = join(dataDir, 'tocsin.json');
writeFileSync(
  configPath,
  JSON.stringify({
    plans: { enterprise: { interval_floor_seconds: 1, monitors: null, status_pages: null } },
    intelligence: { enabled: false },
  }),
);
const smtp = await startSmtpServer();
const env: Record<string, string> = {
  ...(process.env as Record<string, string>),
  TOCSIN_DATA_DIR: dataDir,
  TOCSIN_CONFIG: configPath,
  TOCSIN_PUBLIC_URL: 'http://status.bench.test',
  SMTP_URL: smtp.url,
  LOG_LEVEL: 'warn',
  NODE_ENV: 'production',
};
delete env.DATABASE_URL;

const targets: ChildProcess = fork(new URL('../engine/targets.child.ts', import.meta.url), ['4'], { stdio: 'inherit' });
const { ports } = await new Promise<{ ports: number[] }>((resolve) =>
  targets.once('message', (m) => resolve(m as { ports: number[] })),
);

// --- Set-up, before serve.
const setup = await createTocsin(loadConfig({ env, isTty: false }), {
  logger: createLogger({ level: 'warn', pretty: false }),
  background: false,
});
const org = await setup.services.orgs.createOrganization({ name: 'bench', plan: 'enterprise' });
const user = await setup.services.orgs.ensureUser({ email: 'bench@example.com' });
await setup.services.orgs.addMember(org.id, user.id, 'owner');
const key = await setup.services.auth.issueKey({
  organizationId: org.id,
  name: 'bench',
  scopes: [...SCOPES],
  environments: ['production'],
  userId: user.id,
  createdBy: user.id,
});
const actor = (await setup.services.auth.authenticate(key.key))!;
const auth = { authorization: `Bearer ${key.key}` };
const monitorIds: string[] = [];
let t0 = Date.now();
for (let i = 0; i < MONITORS; i++) {
  const m = await setup.services.monitors.create(
    { actor, db: setup.database, clock: setup.clock },
    { target: `http://127.0.0.1:${ports[i % ports.length]}/m/${i}`, interval_seconds: INTERVAL_S, name: `bench ${i}` },
  );
  monitorIds.push(m.id);
}
log(`created ${MONITORS} monitors in ${Date.now() - t0} ms`);
const inject = async (method: 'POST' | 'GET', url: string, payload?: Record<string, unknown>) => {
  const res = await setup.app.inject({ method, url, headers: auth, ...(payload && { payload }) });
  if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
  return res.json() as { id: string };
};
const page = await inject('POST', '/api/v1/status-pages', {
  slug: SLUG,
  title: 'Bench fan-out',
  monitor_ids: monitorIds.slice(0, 50),
  subscriptions_enabled: true,
});
// Published before the subscribers confirm: its own message reaches none of them (a message goes to the
// subscribers confirmed by its creation), so the update below is the one fan-out measured.
const notice = await inject('POST', `/api/v1/status-pages/${page.id}/notices`, {
  kind: 'incident',
  impact: 'major',
  title: 'Slow responses in one region',
  body: 'We are looking into **slow responses**.',
  published: true,
});
t0 = Date.now();
for (let i = 0; i < SUBSCRIBERS; i++) {
  await setup.services.statusSubscribers.subscribe(
    SLUG,
    `reader-${i}@example.com`,
    `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
  );
}
const db = setup.database.tables<unknown>();
await new Promise((r) => setTimeout(r, 5)); // confirmed strictly after the notice's message was made
const confirmedAt = Date.now();
await sql`update status_subscriber set confirmed_at = ${confirmedAt}, confirm_token_hash = null,
  confirm_expires_at = null where status_page_id = ${page.id}`.execute(db);
await sql`delete from status_delivery where message_id is null`.execute(db);
const confirmed = Number(
  (await sql<{ n: number }>`select count(*) as n from status_subscriber where confirmed_at is not null`.execute(db))
    .rows[0]!.n,
);
log(`${confirmed} subscribers subscribed and confirmed in ${Date.now() - t0} ms`);
await setup.close();

// --- serve: warm-up, baseline, fan-out.
const serve = await startServe('serve', env, nodeFlags);
const base = `http://127.0.0.1:${serve.port}`;
const pid = serve.child.pid!;
log(`serve ready on ${base}; warming up ${INTERVAL_S + 10} s`);
await new Promise((r) => setTimeout(r, (INTERVAL_S + 10) * 1000));
const mailsBefore = smtp.messages.length;
const baselineStart = Date.now();
const cpu0 = cpuMsOf(pid);
await new Promise((r) => setTimeout(r, BASELINE_MS));
const cpuBaseline = cpuMsOf(pid) - cpu0;

const publishAt = Date.now();
const posted = await fetch(`${base}/api/v1/status-pages/${page.id}/notices/${notice.id}/updates`, {
  method: 'POST',
  headers: { ...auth, 'content-type': 'application/json' },
  body: JSON.stringify({ status: 'identified', body: 'Identified: a configuration change; a fix is rolling out.' }),
});
if (posted.status !== 201) throw new Error(`update not posted: ${posted.status} ${await posted.text()}`);
const answeredAt = Date.now();
const cpu1 = cpuMsOf(pid);
const progress: Array<[number, number]> = [];
let allAt: number | null = null;
while (Date.now() - publishAt < TIMEOUT_MS) {
  const n = smtp.messages.length - mailsBefore;
  if (progress.length === 0 || progress.at(-1)![1] !== n) progress.push([Date.now() - publishAt, n]);
  if (n >= SUBSCRIBERS) {
    allAt = Date.now();
    break;
  }
  await new Promise((r) => setTimeout(r, 100));
}
const fanOutEnd = allAt ?? Date.now();
const cpuFanOut = cpuMsOf(pid) - cpu1;
// Everything due in the fan-out window starts by one interval after it (slotsFromExecutions reads that far);
// more mail arriving meanwhile would be a duplicate.
await new Promise((r) => setTimeout(r, (INTERVAL_S + 5) * 1000));
const codes = await stopAll([serve]);
targets.disconnect();

const mails = smtp.messages.slice(mailsBefore);
const messageIds = new Set(mails.map((m) => m.headers['message-id']));
const recipients = new Set(mails.flatMap((m) => m.to));
const withUnsubscribe = mails.filter(
  (m) => m.headers['list-unsubscribe-post'] === 'List-Unsubscribe=One-Click' && m.headers['list-unsubscribe'],
).length;
await smtp.close();

const after = await createTocsin(loadConfig({ env, isTty: false }), {
  logger: createLogger({ level: 'warn', pretty: false }),
  background: false,
  migrate: false,
});
const adb = after.database.tables<unknown>();
const baseline = await slotsFromExecutions(adb, INTERVAL_S * 1000, baselineStart, publishAt);
const during = await slotsFromExecutions(adb, INTERVAL_S * 1000, publishAt, fanOutEnd);
const deliveries = (
  await sql<{ status: string; n: number }>`select status, count(*) as n from status_delivery group by status`.execute(
    adb,
  )
).rows;
await after.close();

const at = (share: number) => progress.find(([, n]) => n >= SUBSCRIBERS * share)?.[0] ?? null;
console.log(
  JSON.stringify(
    {
      machine: `${cpus().length} × ${cpus()[0]?.model ?? '?'}`,
      load_average_at_end: loadavg().map((x) => +x.toFixed(2)),
      node: process.version,
      date: new Date().toISOString(),
      dialect: 'sqlite',
      subscribers_confirmed: confirmed,
      monitors: MONITORS,
      interval_seconds: INTERVAL_S,
      update_post_ms: answeredAt - publishAt,
      all_accepted_by_smtp_seconds: allAt === null ? null : +((allAt - publishAt) / 1000).toFixed(1),
      ms_to_share_accepted: { '10%': at(0.1), '50%': at(0.5), '90%': at(0.9) },
      mails_per_second: allAt === null ? null : +(SUBSCRIBERS / ((allAt - publishAt) / 1000)).toFixed(1),
      mails_received: mails.length,
      unique_message_ids: messageIds.size,
      unique_recipients: recipients.size,
      mails_with_rfc8058_headers: withUnsubscribe,
      deliveries_by_status: Object.fromEntries(deliveries.map((d) => [d.status, Number(d.n)])),
      lateness_ms: { before: latenessFigures(baseline.lateness), during_fan_out: latenessFigures(during.lateness) },
      duplicate_slot_executions: baseline.duplicateSlots + during.duplicateSlots,
      serve_cpu_percent_of_one_core: {
        before: +((cpuBaseline / BASELINE_MS) * 100).toFixed(1),
        during_fan_out: +((cpuFanOut / (fanOutEnd - answeredAt)) * 100).toFixed(1),
      },
      serve_exit_code: codes[0],
    },
    null,
    2,
  ),
);
process.exit(0);
