import { describe, expect, it } from 'vitest';
import type { Actor, ServiceContext } from '../auth/index.ts';
import { JsonSerializers, runReportJob, type ReportJob, type ReportJobHost } from './report-build.job.ts';
import type { ReportOf } from './report.kinds.ts';

const actor = { organizationId: 'org_1' } as unknown as Actor;
const ctx = { actor, clock: { now: () => 0 } } as unknown as ServiceContext;
const period = { from: '2026-11-01T00:00:00.000Z', to: '2026-11-02T00:00:00.000Z', timezone: 'UTC', preset: null };

/** A host that counts what the job asks of it. */
function countingHost() {
  const calls = { build: 0, encode: [] as string[], document: 0, customEncode: [] as string[] };
  const host: ReportJobHost = {
    build: async () => {
      calls.build += 1;
      return {
        report: 'incidents',
        period,
        generated_at: period.to,
        summary: { count: 2 },
        extra: 'x',
      } as unknown as ReportOf['incidents'];
    },
    encode: async (_ctx, kind, report, format) => {
      calls.encode.push(format);
      return { contentType: format, filename: `${kind}.${format}`, body: Buffer.from(report.generated_at) };
    },
    custom: {
      document: async () => {
        calls.document += 1;
        return { report: 'custom', name: 'Weekly', period, sections: [{}, {}, {}] } as never;
      },
      encode: async (_ctx, doc, format) => {
        calls.customEncode.push(format);
        return { contentType: format, filename: `${doc.name}.${format}`, body: Buffer.from('') };
      },
    },
  };
  return { host, calls };
}

const base = { actor, now: 0, formats: ['json', 'csv', 'pdf'] as const, json: null };

describe('runReportJob', () => {
  it('builds a report once and encodes each format from that one object (JSON here, CSV and PDF by the host)', async () => {
    const { host, calls } = countingHost();
    const job: ReportJob = { ...base, type: 'report', kind: 'incidents', input: { period: 'last_7_days' } };
    const built = await runReportJob(host, ctx, job, new JsonSerializers());
    expect(calls.build).toBe(1);
    expect(calls.encode).toEqual(['csv', 'pdf']);
    expect(Object.keys(built.files)).toEqual(['json', 'csv', 'pdf']);
    expect(JSON.parse(built.files.json!.body.toString())).toMatchObject({ report: 'incidents', extra: 'x' });
    expect(built.files.json!.filename).toBe('tocsin-incidents-2026-11-01-2026-11-01.json');
    // what a scheduled run states of it comes from the object built, not from its JSON parsed again
    expect(built.period).toEqual(period);
    expect(built.summary).toEqual({ count: 2 });
  });

  it('writes JSON with the serializer schema when given one (the route’s bytes)', async () => {
    const { host } = countingHost();
    const schema = { type: 'object', properties: { report: { type: 'string' }, generated_at: { type: 'string' } } };
    const job: ReportJob = {
      ...base,
      formats: ['json'],
      type: 'report',
      kind: 'incidents',
      input: {},
      json: { schema, external: {} },
    };
    const built = await runReportJob(host, ctx, job, new JsonSerializers());
    expect(built.files.json!.body.toString()).toBe('{"report":"incidents","generated_at":"2026-11-02T00:00:00.000Z"}');
  });

  it('builds a custom report’s document once for all its files; its headline counts the sections', async () => {
    const { host, calls } = countingHost();
    const built = await runReportJob(host, ctx, { ...base, type: 'custom', id: 'crp_1' }, new JsonSerializers());
    expect(calls.document).toBe(1);
    expect(calls.customEncode).toEqual(['csv', 'pdf']);
    expect(built.files.json!.filename).toBe('tocsin-weekly-2026-11-01-2026-11-01.json');
    expect(built.summary).toEqual({ sections: 3 });
    expect(built.period).toEqual(period);
  });
});
