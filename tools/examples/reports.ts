/**
 * Regenerates the example report PDFs in docs/examples/ from `tocsin demo` data: a demo organization with
 * --monitors monitors and --days days of history is written through the check engine into a throw-away SQLite
 * database (a fixed clock and seed make the same history every time), then each report route is asked for
 * `format=pdf` over HTTP with the demo's API key, for the previous calendar month in Europe/Berlin (October 2026:
 * its DST change included), and the demo's custom report over its own period (custom.pdf). A report the server
 * cannot make yet stops the script with its error.
 * Usage: node tools/examples/reports.ts [--out docs/examples] [--monitors 12] [--days 40]
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { generateDemo } from '../../src/cli/demo/demo.generator.ts';
import { loadConfig } from '../../src/config/index.ts';
import { createTocsin } from '../../src/main.ts';
import { ManualClock } from '../../src/platform/clock.ts';
import { createLogger } from '../../src/platform/logger.ts';

const { values: args } = parseArgs({
  options: {
    out: { type: 'string', default: 'docs/examples' },
    monitors: { type: 'string', default: '12' },
    days: { type: 'string', default: '40' },
  },
});

const NOW = Date.parse('2026-11-02T07:30:00Z');
const QUERY = 'period=previous_month&timezone=Europe/Berlin&format=pdf';
const ROUTES = ['availability', 'performance', 'sla', 'incidents', 'intelligence', 'monitor-health'];

const dataDir = mkdtempSync(join(tmpdir(), 'tocsin-examples-'));
const clock = new ManualClock(NOW);
const logger = createLogger({ level: 'warn', pretty: false, destination: process.stderr });
const config = loadConfig({ env: { TOCSIN_DATA_DIR: dataDir, NODE_ENV: 'production' } });
const tocsin = await createTocsin(config, { logger, clock, background: false });
try {
  const started = Date.now();
  const demo = await generateDemo(
    { services: tocsin.services, database: tocsin.database, clock, logger },
    {
      monitors: Number(args.monitors),
      days: Number(args.days),
      intervalSeconds: 300,
      now: NOW,
      seed: 11,
      organizationName: 'Demo Zürich – 東京 – Łódź',
      email: 'demo@example.com',
    },
  );
  clock.set(NOW);
  console.log(`demo: ${demo.checks} checks, ${demo.incidents} incidents in ${(Date.now() - started) / 1000} s`);
  mkdirSync(args.out, { recursive: true });
  for (const route of ROUTES) {
    const res = await tocsin.app.inject({
      method: 'GET',
      url: `/api/v1/reports/${route}?${QUERY}`,
      headers: { authorization: `Bearer ${demo.api_key}` },
    });
    if (res.statusCode !== 200) throw new Error(`${route}: ${res.statusCode} ${res.body.slice(0, 300)}`);
    const file = join(args.out, `${route}.pdf`);
    writeFileSync(file, res.rawPayload);
    console.log(`${file}: ${res.rawPayload.length} bytes (${res.headers['content-disposition']})`);
  }
  // The demo's custom report (a section per widget) over its own period, as its render route answers.
  const custom = await tocsin.app.inject({
    method: 'GET',
    url: `/api/v1/custom-reports/${demo.custom_report_id}/render?format=pdf`,
    headers: { authorization: `Bearer ${demo.api_key}` },
  });
  if (custom.statusCode !== 200) throw new Error(`custom report: ${custom.statusCode} ${custom.body.slice(0, 300)}`);
  writeFileSync(join(args.out, 'custom.pdf'), custom.rawPayload);
  console.log(`${join(args.out, 'custom.pdf')}: ${custom.rawPayload.length} bytes`);
} finally {
  await tocsin.close();
  rmSync(dataDir, { recursive: true, force: true });
}
