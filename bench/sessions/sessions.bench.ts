/**
 * People in the web app: the cost of a password hash, sign-in answers (right password, wrong password, unknown
 * address: the last two should take the same time), a read authenticated by the session cookie against the same
 * read with a key, and the live stream's fan-out (one change → N connected SSE clients over real HTTP).
 *
 *   node bench/sessions/sessions.bench.ts
 *   BENCH_SIGNINS=20 BENCH_READS=2000 BENCH_CLIENTS=100 DATABASE_URL=postgres://… node bench/sessions/sessions.bench.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/index.ts';
import { createTocsin } from '../../src/main.ts';
import { hashPassword, SCOPES } from '../../src/modules/auth/index.ts';
import { createLogger } from '../../src/platform/logger.ts';

const SIGNINS = Number(process.env.BENCH_SIGNINS ?? 20);
const READS = Number(process.env.BENCH_READS ?? 2000);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 100);
const PASSWORD = 'bench password 1';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const p90 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.9)]!;
const ms = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e6;

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'tocsin-bench-sessions-'));
  const config = loadConfig({
    env: {
      TOCSIN_DATA_DIR: dataDir,
      TOCSIN_CONFIG: '/virtual.json',
      LOG_LEVEL: 'warn',
      ...(process.env.DATABASE_URL && { DATABASE_URL: process.env.DATABASE_URL }),
    },
    readFile: () => JSON.stringify({ plans: { enterprise: { interval_floor_seconds: 1 } } }),
    isTty: false,
  });
  const tocsin = await createTocsin(config, {
    logger: createLogger({ level: 'error', pretty: false }),
    background: false,
  });
  const app = tocsin.app;
  const { orgs, auth } = tocsin.services;
  const org = await orgs.createOrganization({ name: 'Bench', plan: 'enterprise' });

  // Users with passwords, one per sign-in so the slow-down of one account never answers instead.
  const hashTimes: number[] = [];
  let hashCpuMs = 0;
  const users: string[] = [];
  let ownerId = '';
  for (let i = 0; i < SIGNINS * 2; i += 1) {
    const start = process.hrtime.bigint();
    const cpu = process.cpuUsage();
    const hash = await hashPassword(PASSWORD);
    hashTimes.push(ms(start));
    const used = process.cpuUsage(cpu);
    hashCpuMs += (used.user + used.system) / 1000;
    const user = await orgs.ensureUser({ email: `bench${i}@example.com` });
    await orgs.addMember(org.id, user.id, 'owner');
    await tocsin.database
      .tables<{ app_user: { id: string; password_hash: string | null } }>()
      .updateTable('app_user')
      .set({ password_hash: hash })
      .where('id', '=', user.id)
      .execute();
    users.push(user.email);
    ownerId ||= user.id;
  }
  const signIn = async (email: string, password: string, n: number) => {
    const start = process.hrtime.bigint();
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/auth/sessions',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.0.${Math.floor(n / 250)}.${n % 250}` },
      payload: JSON.stringify({ email, password }),
    });
    return { took: ms(start), status: res.statusCode, cookie: String(res.headers['set-cookie'] ?? '').split(';')[0]! };
  };
  const right: number[] = [];
  const wrong: number[] = [];
  const unknown: number[] = [];
  let cookie = '';
  for (let i = 0; i < SIGNINS; i += 1) {
    const a = await signIn(users[i]!, PASSWORD, i * 3);
    const b = await signIn(users[SIGNINS + i]!, 'not the password', i * 3 + 1);
    const c = await signIn(`nobody${i}@example.com`, 'not the password', i * 3 + 2);
    if (a.status !== 201 || b.status !== 401 || c.status !== 401)
      throw new Error(`${a.status} ${b.status} ${c.status}`);
    right.push(a.took);
    wrong.push(b.took);
    unknown.push(c.took);
    cookie = a.cookie;
  }

  // The same read, by cookie and by key (sequential, in process: the cost of authenticating).
  const key = (
    await auth.issueKey({
      organizationId: org.id,
      name: 'bench',
      scopes: [...SCOPES],
      userId: ownerId,
      rateLimits: { read_per_minute: 100_000, write_per_minute: 100_000, delete_per_minute: 100_000 },
    })
  ).key;
  const read = async (headers: Record<string, string>) => {
    for (let i = 0; i < 50; i += 1) await app.inject({ method: 'GET', url: '/api/v1/monitors', headers });
    const start = process.hrtime.bigint();
    for (let i = 0; i < READS; i += 1) {
      const res = await app.inject({ method: 'GET', url: '/api/v1/monitors', headers });
      if (res.statusCode !== 200) throw new Error(`read ${res.statusCode}`);
    }
    return (ms(start) * 1000) / READS;
  };
  const byKey = await read({ authorization: `Bearer ${key}` });
  const byCookie = await read({ cookie });

  // Fan-out: CLIENTS streams over real HTTP; an incident created → the time until every client has it (5 rounds,
  // after one incident that compiles the route's validators and serializers).
  const createIncident = async (title: string) => {
    const made = await app.inject({
      method: 'POST',
      url: '/api/v1/incidents',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ title }),
    });
    if (made.statusCode !== 201) throw new Error(`incident ${made.statusCode} ${made.body}`);
  };
  await createIncident('warm-up');
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as AddressInfo).port;
  let arrivals: number[] = [];
  let created = process.hrtime.bigint();
  await Promise.all(
    Array.from(
      { length: CLIENTS },
      () =>
        new Promise<void>((resolve, reject) => {
          const req = request(
            { host: '127.0.0.1', port, path: '/api/v1/events/stream', headers: { cookie } },
            (res) => {
              res.setEncoding('utf8');
              let seenReady = false;
              res.on('data', (chunk: string) => {
                if (!seenReady && chunk.includes('event: ready')) {
                  seenReady = true;
                  resolve();
                }
                if (chunk.includes('event: incident.opened')) arrivals.push(ms(created));
              });
            },
          );
          req.on('error', reject);
          req.end();
        }),
    ),
  );
  const allReceived: number[] = [];
  const medians: number[] = [];
  for (let r = 0; r < 5; r += 1) {
    arrivals = [];
    created = process.hrtime.bigint();
    await createIncident(`Bench incident ${r}`);
    const deadline = Date.now() + 10_000;
    while (arrivals.length < CLIENTS && Date.now() < deadline) await new Promise((res) => setTimeout(res, 2));
    if (arrivals.length < CLIENTS) throw new Error(`only ${arrivals.length} of ${CLIENTS} clients got the event`);
    allReceived.push(Math.max(...arrivals));
    medians.push(median(arrivals));
  }

  const round = (x: number) => Math.round(x * 10) / 10;
  console.log(
    JSON.stringify(
      {
        database: tocsin.database.dialect,
        scrypt_hash_ms: {
          median: round(median(hashTimes)),
          p90: round(p90(hashTimes)),
          cpu_mean: round(hashCpuMs / hashTimes.length),
          n: hashTimes.length,
        },
        sign_in_ms: {
          right_password: { median: round(median(right)), p90: round(p90(right)) },
          wrong_password: { median: round(median(wrong)), p90: round(p90(wrong)) },
          unknown_address: { median: round(median(unknown)), p90: round(p90(unknown)) },
          n: SIGNINS,
        },
        read_us_per_request: { key: round(byKey), session_cookie: round(byCookie), n: READS },
        sse_fanout_ms: {
          clients: CLIENTS,
          rounds: allReceived.length,
          every_client_median: round(median(allReceived)),
          every_client_max: round(Math.max(...allReceived)),
          per_client_median: round(median(medians)),
        },
      },
      null,
      2,
    ),
  );
  await tocsin.close();
  rmSync(dataDir, { recursive: true, force: true });
}

await main();
