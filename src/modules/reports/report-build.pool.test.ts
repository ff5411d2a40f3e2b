import { readdirSync, readFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DomainError } from '../../platform/errors.ts';
import { ManualTimers } from '../../platform/timers.ts';
import type { Actor } from '../auth/index.ts';
import { ReportBuildPool, type ReportBuildJob } from './report-build.pool.ts';

const FIXTURE = new URL('../../../test/reports/report-worker.fixture.ts', import.meta.url);

const actor = {
  organizationId: 'org_1',
  plan: 'enterprise',
  keyId: 'key_1',
  userId: null,
  serviceAccountId: null,
  role: 'owner',
  scopes: new Set(['reports:read']),
  environments: ['production'],
  rateLimits: {},
} as unknown as Actor;

const SLA_SCHEMA = {
  type: 'object',
  properties: {
    report: { type: 'string' },
    generated_at: { type: 'string' },
    methodology: { type: 'string' },
    targets: { type: 'array', items: {} },
  },
};

const job = (timezone: string, format: ReportBuildJob['format'] = 'json'): ReportBuildJob => ({
  kind: 'sla',
  format,
  input: { from: '2026-11-01T00:00:00Z', to: '2026-11-02T00:00:00Z', timezone },
  actor,
  now: Date.parse('2026-11-02T12:00:00Z'),
  json: format === 'json' ? { schema: SLA_SCHEMA, external: {} } : null,
});

let pool: ReportBuildPool | undefined;
afterEach(async () => {
  await pool?.close();
  pool = undefined;
});

const make = (timeoutMs = 20_000, idle: { idleMs: number; timers?: ManualTimers } = { idleMs: 300_000 }) =>
  (pool = new ReportBuildPool({ workers: 1, timeoutMs, ...idle, compose: FIXTURE, setup: { organization: 'Acme' } }));

/** Threads of this process running at nice 10: report threads (the main thread and vitest's run at 0). */
const niceTen = () =>
  readdirSync('/proc/self/task').filter((tid) => {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      // fields after the command's closing parenthesis; nice is the 19th field of the line
      return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]) === 10;
    } catch {
      return false; // a thread that ended while listing
    }
  }).length;

describe('ReportBuildPool', () => {
  it("builds on its thread with the job's instant and actor, writes JSON with the given schema only", async () => {
    const file = await make().build(job('UTC'));
    expect(file.contentType).toBe('application/json; charset=utf-8');
    expect(file.filename).toBe('tocsin-sla-2026-11-01-2026-11-01.json');
    // properties outside the schema (period, summary) are left out, as the route's serializer does
    expect(file.body.toString()).toBe(
      '{"report":"sla","generated_at":"2026-11-02T12:00:00.000Z","methodology":"for org_1","targets":[]}',
    );
  });

  it.runIf(process.platform === 'linux')('runs its thread at a lower priority than the main thread', async () => {
    const nices = () =>
      readdirSync('/proc/self/task').map((tid) => {
        const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
        // fields after the command's closing parenthesis; nice is the 19th field of the line
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
      });
    const before = nices().filter((n) => n === 10).length;
    await make().warm();
    expect(nices().filter((n) => n === 10).length).toBe(before + 1);
    expect(getPriority()).toBe(0);
  });

  it('answers CSV and PDF files, and draws PDFs of reports built elsewhere', async () => {
    const p = make();
    const [csv, pdf, warmed] = await Promise.all([p.build(job('UTC', 'csv')), p.build(job('UTC', 'pdf')), p.warm()]);
    expect(warmed).toBeUndefined();
    expect(csv.contentType).toBe('text/csv; charset=utf-8');
    expect(csv.filename).toBe('tocsin-sla-2026-11-01-2026-11-01.csv');
    expect(pdf.contentType).toBe('application/pdf');
    expect(pdf.body.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('one job builds its report once on the thread and answers every format asked for, with period and summary', async () => {
    const { format: _format, ...rest } = job('UTC');
    const built = await make().run({ type: 'report', ...rest, formats: ['json', 'csv', 'pdf'] });
    expect(Object.keys(built.files)).toEqual(['json', 'csv', 'pdf']);
    expect(built.files.json!.body.toString()).toContain('"generated_at":"2026-11-02T12:00:00.000Z"');
    expect(built.files.csv!.contentType).toBe('text/csv; charset=utf-8');
    expect(built.files.pdf!.body.subarray(0, 5).toString()).toBe('%PDF-');
    expect(built.period).toMatchObject({ from: '2026-11-01T00:00:00Z', to: '2026-11-02T00:00:00Z' });
    expect(built.summary).toMatchObject({ targets: 0, in_progress: 0 });
  });

  it('a DomainError on the thread is the same DomainError here', async () => {
    const err = await make()
      .build(job('refuse'))
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DomainError);
    expect(err).toMatchObject({ code: 'validation_failed', details: [{ field: 'timezone', issue: 'refused' }] });
  });

  it('a thread that dies fails its job with a plain error (500, reason logged); the next job gets a new thread', async () => {
    const p = make();
    const err = await p.build(job('crash')).catch((e: unknown) => e);
    // not a DomainError: the route answers the generic 500 envelope and logs this reason
    expect(err).toBeInstanceOf(Error);
    expect(err).not.toBeInstanceOf(DomainError);
    expect((err as Error).message).toMatch(/the report worker stopped: exit code 3/);
    expect((await p.build(job('UTC'))).body.toString()).toContain('"report":"sla"');
  });

  it('a job over the time limit is stopped with its thread (service_unavailable); jobs queued behind it run', async () => {
    const p = make(1500);
    const started = Date.now();
    const [hung, next] = await Promise.all([p.build(job('hang')).catch((e: unknown) => e), p.build(job('UTC'))]);
    expect(hung).toBeInstanceOf(DomainError);
    expect(hung).toMatchObject({ code: 'service_unavailable', message: expect.stringMatching(/longer than 2 s/) });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1500);
    expect(next.body.toString()).toContain('"report":"sla"');
  });

  it('starts no thread before the first job; stops its thread after idleMs without a job; the next job starts one', async () => {
    const timers = new ManualTimers();
    const p = make(20_000, { idleMs: 60_000, timers });
    const before = process.platform === 'linux' ? niceTen() : 0;
    expect(p.size).toBe(0);
    expect((await p.build(job('UTC'))).body.toString()).toContain('"report":"sla"');
    expect(p.size).toBe(1);
    timers.advance(59_999);
    expect(p.size).toBe(1);
    // a job before the idle time is up keeps the thread, and the idle time counts again from its end
    await p.build(job('UTC', 'csv'));
    timers.advance(59_999);
    expect(p.size).toBe(1);
    timers.advance(1);
    expect(p.size).toBe(0);
    expect(timers.size).toBe(0);
    if (process.platform === 'linux') await vi.waitFor(() => expect(niceTen()).toBe(before), { timeout: 5000 });
    const again = await p.build(job('UTC', 'pdf'));
    expect(again.body.subarray(0, 5).toString()).toBe('%PDF-');
    expect(p.size).toBe(1);
    if (process.platform === 'linux') expect(niceTen()).toBe(before + 1);
  });

  it('with idleMs 0 keeps its thread until close', async () => {
    const timers = new ManualTimers();
    const p = make(20_000, { idleMs: 0, timers });
    await p.build(job('UTC'));
    expect(timers.size).toBe(0);
    await p.close();
    expect(p.size).toBe(0);
  });

  it('close fails what is queued and stops the thread; the pool starts again afterwards', async () => {
    const p = make();
    const hung = p.build(job('hang')).catch((e: unknown) => e);
    const queued = p.build(job('UTC')).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 200));
    await p.close();
    expect(await hung).toMatchObject({ code: 'service_unavailable' });
    expect(await queued).toMatchObject({ code: 'service_unavailable' });
    expect((await p.build(job('UTC'))).body.toString()).toContain('"report":"sla"');
  });
});
