/**
 * The `/metrics` exposition follows the rules `promtool check metrics` applies (its lint), checked here over a real
 * scrape after requests and checks: so a renamed or added series, or a prom-client default, cannot break them
 * unseen. promtool is run over the same text too (skipped only where it is missing and not required: CI requires it).
 */
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, ManualClock, type TestApp } from '../support/app.ts';
import { skipWithout } from '../support/services.ts';
import { startHttpTarget, type RunningTarget } from '../support/targets/index.ts';

interface Family {
  name: string;
  type?: string;
  help?: string;
  samples: string[];
}

/** Families in order of their HELP/TYPE lines, each with the names of its samples. */
function families(text: string): { families: Map<string, Family>; problems: string[] } {
  const out = new Map<string, Family>();
  const problems: string[] = [];
  let current: Family | undefined;
  const family = (name: string) => {
    let f = out.get(name);
    if (!f) out.set(name, (f = { name, samples: [] }));
    return f;
  };
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const meta = /^# (HELP|TYPE) ([a-zA-Z_:][a-zA-Z0-9_:]*) ?(.*)$/.exec(line);
    if (meta) {
      current = family(meta[2]!);
      if (meta[1] === 'HELP') current.help = meta[3];
      else current.type = meta[3];
      continue;
    }
    if (line.startsWith('#')) continue;
    const sample = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{.*\})? \S+$/.exec(line);
    if (!sample) {
      problems.push(`not a sample line: ${line}`);
      continue;
    }
    const name = sample[1]!;
    if (!current) {
      problems.push(`${name}: sample before any HELP or TYPE`);
      continue;
    }
    current.samples.push(name);
  }
  return { families: out, problems };
}

const SUFFIXES: Record<string, string[]> = {
  counter: [''],
  gauge: [''],
  histogram: ['_bucket', '_sum', '_count'],
  summary: ['', '_sum', '_count'],
};
/** promtool's lint: base units, not these (its list of non-base units, as name parts). */
const NON_BASE_UNITS = [
  'milliseconds',
  'microseconds',
  'nanoseconds',
  'minutes',
  'hours',
  'days',
  'weeks',
  'kilobytes',
  'megabytes',
  'gigabytes',
  'kibibytes',
  'mebibytes',
  'gibibytes',
  'bits',
  'percent',
  'celsius',
  'fahrenheit',
  'grams',
];

/** The problems promtool's `check metrics` lint would report, in words of its own. */
export function lintExposition(text: string): string[] {
  const { families: found, problems } = families(text);
  for (const f of found.values()) {
    if (!f.help) problems.push(`${f.name}: no HELP text`);
    if (!f.type) problems.push(`${f.name}: no TYPE`);
    if (!/^[a-z_:][a-z0-9_:]*$/.test(f.name)) problems.push(`${f.name}: not snake_case`);
    if (f.type === 'counter' && !f.name.endsWith('_total')) problems.push(`${f.name}: counter without _total`);
    if (f.type !== 'counter' && f.name.endsWith('_total')) problems.push(`${f.name}: non-counter with _total`);
    if (f.type !== 'histogram' && f.name.endsWith('_bucket')) problems.push(`${f.name}: _bucket on a ${f.type}`);
    for (const unit of NON_BASE_UNITS) {
      if (f.name.split('_').includes(unit)) problems.push(`${f.name}: ${unit} is not a base unit`);
    }
    const allowed = (SUFFIXES[f.type ?? ''] ?? ['']).map((s) => f.name + s);
    for (const s of f.samples) if (!allowed.includes(s)) problems.push(`${s}: a sample not of family ${f.name}`);
    if (f.type === 'histogram' && f.samples.length > 0) {
      for (const part of ['_bucket', '_sum', '_count'])
        if (!f.samples.includes(f.name + part)) problems.push(`${f.name}: histogram without ${part}`);
    }
  }
  return [...new Set(problems)];
}

describe('the /metrics exposition passes the Prometheus lint', () => {
  let t: TestApp;
  let target: RunningTarget;
  beforeAll(async () => {
    const clock = new ManualClock(Date.parse('2026-03-01T10:00:00.000Z'));
    t = await createTestApp({ clock, configFile: { metrics: { enabled: true } } });
    target = await startHttpTarget((_req, res) => res.writeHead(200).end('ok'));
    const org = await t.createOrg();
    const created = await t.tocsin.app.inject({
      method: 'POST',
      url: '/api/v1/monitors',
      headers: bearer(org.apiKey),
      payload: { name: 'Lint', target: target.url, interval_seconds: 30 },
    });
    expect(created.statusCode).toBe(201);
    clock.advance(30_000);
    expect(await t.tocsin.services.checks.localRunner.runOnce()).toBe(1);
  });
  afterAll(async () => {
    await target.close();
    await t.close();
  });

  const scrape = async () => {
    const res = await t.tocsin.app.inject({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(200);
    return res.body;
  };

  it('has no family the lint flags, process and Node.js defaults included', async () => {
    const text = await scrape();
    // The defaults and the checks are there, so the rules ran over both.
    expect(text).toContain('# TYPE nodejs_active_handles gauge');
    expect(text).toContain('# TYPE process_cpu_seconds_total counter');
    expect(text).toContain('# TYPE tocsin_checks_total counter');
    expect(lintExposition(text)).toEqual([]);
  });

  it('catches what promtool catches (the rules are not empty)', () => {
    const bad = [
      '# HELP nodejs_active_handles_total Total number of active handles.',
      '# TYPE nodejs_active_handles_total gauge',
      'nodejs_active_handles_total 3',
      '# TYPE requests counter',
      'requests 1',
      '# HELP latency_milliseconds Latency.',
      '# TYPE latency_milliseconds histogram',
      'latency_milliseconds_sum 1',
    ].join('\n');
    expect(lintExposition(bad)).toEqual([
      'nodejs_active_handles_total: non-counter with _total',
      'requests: no HELP text',
      'requests: counter without _total',
      'latency_milliseconds: milliseconds is not a base unit',
      'latency_milliseconds: histogram without _bucket',
      'latency_milliseconds: histogram without _count',
    ]);
  });

  it.skipIf(skipWithout('promtool'))('promtool check metrics reports nothing (promtool required in CI)', async () => {
    const text = await scrape();
    const run = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' });
    expect(`${run.stdout}${run.stderr}`).toBe('');
    expect(run.status).toBe(0);
  });
});
