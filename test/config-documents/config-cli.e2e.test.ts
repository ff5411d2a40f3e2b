/**
 * `tocsin config plan|apply` against a real `tocsin serve` (SQLite and PostgreSQL): the CLI checks the files, the
 * server plans and applies, and a refusal of the server is placed in the files as file:line:column.
 */
import { execFile, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Tocsin } from '../../src/main.ts';
import { serve, type Served } from '../scheduled-reports/serve.helpers.ts';
import { testDialects, type TestDatabase } from '../support/databases.ts';
import { openSharedDatabase } from '../support/shared-database.ts';

const BIN = new URL('../../bin/tocsin.js', import.meta.url).pathname;

function tocsin(args: string[], env: Record<string, string>): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      { env: { PATH: process.env.PATH ?? '', ...env }, timeout: 90_000 },
      (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, out: stdout, err: stderr }),
    );
  });
}

const DESTINATIONS = `version: 1
destinations:
  - key: ops
    type: generic_webhook
    name: Ops
    config:
      url: https://hooks.example.com/\${env:OPS_TOKEN}
`;
const monitors = (timeout: number, extra = '') => `version: 1
monitors:
  - key: api
    name: API
    target: https://api.example.com/health
    config:
      timeout_ms: ${timeout}
      alert_destinations: [ops]
  - key: db
    type: tcp
    name: DB
    target: db.example.com:5432${extra}
`;

describe.each(testDialects())('tocsin config plan and apply against tocsin serve (%s)', (dialect) => {
  let db: TestDatabase | undefined;
  let inProcess: Tocsin | undefined;
  let served: Served | undefined;
  const children: ChildProcess[] = [];
  afterAll(async () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await inProcess?.close();
    await db?.drop();
  });

  it(
    'plans (exit 2), applies, plans nothing (exit 0), and places a server refusal in the file',
    { timeout: 300_000 },
    async () => {
      const shared = await openSharedDatabase(dialect, { name: `config-cli-${dialect}` });
      ({ db, tocsin: inProcess } = shared);
      served = await serve({ ...shared.env, LOG_LEVEL: 'warn' }, children);
      const dir = mkdtempSync(join(tmpdir(), 'tocsin-config-cli-'));
      mkdirSync(join(dir, 'setup'));
      writeFileSync(join(dir, 'setup', 'destinations.yaml'), DESTINATIONS);
      writeFileSync(join(dir, 'setup', 'monitors.yaml'), monitors(5000));
      const env = {
        TOCSIN_URL: `http://127.0.0.1:${served.port}`,
        TOCSIN_API_KEY: shared.apiKey,
        OPS_TOKEN: 's3cr3t-token',
      };
      const setup = join(dir, 'setup');

      const plan = await tocsin(['config', 'plan', setup], env);
      expect(plan.err).toBe('');
      expect(plan.out).toContain('+ create destinations "ops"');
      expect(plan.out).toContain('+ create monitors "api"\n    name: "API"');
      expect(plan.out).toContain('    config.url: (secret)');
      expect(plan.out).not.toContain('s3cr3t-token');
      expect(plan.out).toContain('Plan: 3 to create, 0 to update, 0 to delete, 0 unchanged.\n');
      expect(plan.code).toBe(2);
      expect(((await served.call(shared.apiKey, 'GET', '/api/v1/monitors')).body as { data: [] }).data).toEqual([]);

      const apply = await tocsin(['config', 'apply', setup], env);
      expect(apply.out).toContain('Applied: 3 to create, 0 to update, 0 to delete, 0 unchanged.\n');
      expect(apply.code).toBe(0);
      const listed = (await served.call(shared.apiKey, 'GET', '/api/v1/monitors')).body as {
        data: Array<{ name: string }>;
      };
      expect(listed.data.map((m) => m.name).sort()).toEqual(['API', 'DB']);

      const again = await tocsin(['config', 'plan', setup], env);
      expect(again.out).toBe('Plan: 0 to create, 0 to update, 0 to delete, 3 unchanged.\n');
      expect(again.code).toBe(0);

      writeFileSync(join(dir, 'setup', 'monitors.yaml'), monitors(7000));
      const update = await tocsin(['config', 'plan', setup], env);
      expect(update.out).toContain('~ update monitors "api"\n    config.timeout_ms: 5000 → 7000\n');
      expect(update.code).toBe(2);

      // Valid to the schema, refused by the server (a region this installation does not run): placed at its line.
      writeFileSync(join(dir, 'setup', 'monitors.yaml'), monitors(7000, '\n    region_codes: [mars-1]'));
      const refused = await tocsin(['config', 'apply', setup], env);
      expect(refused.out).toMatch(/^.*setup\/monitors\.yaml:13:20: monitors "db": region_codes\[0\] /m);
      expect(refused.err).toMatch(/apply refused \(422 validation_failed\).*Nothing was applied\.\n$/);
      expect(refused.code).toBe(1);
      const stillFive = (await served.call(shared.apiKey, 'GET', '/api/v1/monitors')).body as {
        data: Array<{ name: string; config: { timeout_ms: number } }>;
      };
      expect(stillFive.data.find((m) => m.name === 'API')!.config.timeout_ms).toBe(5000);

      // Export: what the API made (a destination with a secret, a monitor, a page with a group) and what the document
      // made, written to files; the records become managed, and export then plan shows nothing to change.
      const made = async (path: string, body: unknown) => {
        const res = await served!.call(shared.apiKey, 'POST', path, body);
        expect(res.status, JSON.stringify(res.body)).toBe(201);
        return res.body as { id: string };
      };
      const slack = await made('/api/v1/auth/organization/webhooks', {
        type: 'chatapp1_webhook',
        name: 'Team chat',
        config: { url: 'https://hooks.slack.com/services/T000/B000/s3cr3t' },
      });
      const shop = await made('/api/v1/monitors', {
        name: 'Shop',
        target: 'https://shop.example.com',
        config: { alert_destination_ids: [slack.id] },
      });
      await made('/api/v1/status-pages', {
        slug: 'shop',
        title: 'Shop',
        groups: [{ name: 'Store', monitor_ids: [shop.id] }],
      });
      // A database monitor's password is write-only (password_set): exported as a variable, never in clear.
      await made('/api/v1/monitors', {
        type: 'postgres',
        name: 'Orders DB',
        target: 'db.example.com:5432',
        config: { username: 'monitor', password: 'pg-s3cr3t' },
      });
      const exported = join(dir, 'exported');
      const exportRun = await tocsin(['config', 'export', exported], env);
      expect(exportRun.err).toBe('');
      expect(exportRun.out).toContain('4 records now managed by these files.');
      expect(exportRun.out).toContain(
        'Set before plan or apply (the API never shows secrets): TOCSIN_TEAM_CHAT_URL, TOCSIN_ORDERS_DB_PASSWORD',
      );
      expect(exportRun.code).toBe(0);
      const destinationsFile = readFileSync(join(exported, 'destinations.yaml'), 'utf8');
      expect(destinationsFile).toContain('url: ${env:TOCSIN_TEAM_CHAT_URL}');
      expect(destinationsFile).not.toContain('T000/B000'); // the Slack URL is a secret the API never shows
      expect(readFileSync(join(exported, 'status-pages.yaml'), 'utf8')).toContain('monitors:\n          - shop');
      const monitorsFile = readFileSync(join(exported, 'monitors.yaml'), 'utf8');
      expect(monitorsFile).toContain('password: ${env:TOCSIN_ORDERS_DB_PASSWORD}');
      expect(monitorsFile).not.toContain('pg-s3cr3t');
      expect(monitorsFile).not.toContain('password_set');
      const exportedEnv = {
        ...env,
        TOCSIN_TEAM_CHAT_URL: 'https://hooks.slack.com/services/T000/B000/s3cr3t',
        TOCSIN_ORDERS_DB_PASSWORD: 'pg-s3cr3t',
      };
      const quiet = await tocsin(['config', 'plan', exported], exportedEnv);
      expect(quiet.out).toMatch(/^Plan: 0 to create, 0 to update, 0 to delete, \d+ unchanged\.\n$/);
      expect(quiet.code).toBe(0);
      const refusedPatch = await served.call(shared.apiKey, 'PATCH', `/api/v1/monitors/${shop.id}`, { name: 'Shop 2' });
      expect(refusedPatch.status).toBe(409);

      const noKey = await tocsin(['config', 'plan', setup], { TOCSIN_URL: env.TOCSIN_URL });
      expect(noKey.err).toBe('tocsin: give an API key with config:write in TOCSIN_API_KEY (or --key)\n');
      expect(noKey.code).toBe(2);
    },
  );
});
