import { describe, expect, it } from 'vitest';
import { checkConfigSources, formatProblem } from './config-document.check.ts';

const env = (vars: Record<string, string>) => (name: string) => vars[name];
const check = (files: Record<string, string>, vars: Record<string, string> = {}) => {
  const result = checkConfigSources(
    Object.entries(files).map(([name, text]) => ({ name, text })),
    env(vars),
  );
  return { ...result, lines: result.problems.map(formatProblem) };
};

const VALID = `version: 1
destinations:
  - key: ops-hook
    type: generic_webhook
    name: Ops
    config:
      url: https://hooks.example.com/\${env:HOOK_PATH}
monitors:
  - key: api
    name: API
    target: https://api.example.com/health
    config:
      alert_destinations: [ops-hook]
  - key: db
    type: tcp
    target: db.example.com:5432
    config:
      depends_on: [api]
status_pages:
  - key: public
    slug: acme
    title: Acme status
    monitors: [api, db]
`;

describe('config validate (offline)', () => {
  it('accepts a valid document: secrets in place, a monitor without type is http', () => {
    const { document, lines } = check({ 'tocsin.yaml': VALID }, { HOOK_PATH: 's3cret' });
    expect(lines).toEqual([]);
    expect(document?.destinations?.[0]?.config).toEqual({ url: 'https://hooks.example.com/s3cret' });
    expect(document?.monitors?.map((m) => m.type)).toEqual(['http', 'tcp']);
    expect(document?.status_pages?.[0]?.monitors).toEqual(['api', 'db']);
  });

  it('reads JSON as well as YAML', () => {
    const json = JSON.stringify({ version: 1, monitors: [{ key: 'a', target: 'https://a.example.com' }] });
    expect(check({ 'tocsin.json': json }).lines).toEqual([]);
  });

  it('names every problem at once with file:line:column, in the schema’s own words', () => {
    const text = `version: 1
monitors:
  - key: api
    target: https://api.example.com
    interval_seconds: "60"
    config:
      timeout_ms: 5
      bogus: true
  - key: Bad_Key
    type: smoke
    target: x
`;
    expect(check({ 'm.yaml': text }).lines).toEqual([
      'm.yaml:5:23: monitors "api": interval_seconds must be an integer',
      'm.yaml:7:19: monitors "api": config.timeout_ms must be between 100 and 60000',
      'm.yaml:8:7: monitors "api": config.bogus is not a known field for http monitors',
      'm.yaml:9:10: monitors "Bad_Key": key must be 1-64 lower-case letters, digits or -',
      'm.yaml:10:11: monitors "Bad_Key": type must be one of http, tls, tcp, dns, grpc, heartbeat, icmp, udp, domain, smtp, websocket, postgres, mysql, redis',
    ]);
  });

  it('refuses two items with one key and a reference to a key the document does not list', () => {
    const text = `version: 1
monitors:
  - key: api
    target: https://api.example.com
    config:
      alert_destinations: [nowhere]
      depends_on: [ghost]
  - key: api
    target: https://api2.example.com
`;
    expect(check({ 'm.yaml': text }).lines).toEqual([
      'm.yaml:6:28: monitors "api": config.alert_destinations[0] names destinations key "nowhere", which the document does not list',
      'm.yaml:7:20: monitors "api": config.depends_on[0] names monitors key "ghost", which the document does not list',
      'm.yaml:8:10: monitors "api": key "api" is already the key of an earlier item of monitors (#1): one item per key',
    ]);
  });

  it('refuses duplicate mapping keys, tabs and several documents in one file, at their places', () => {
    expect(check({ 'd.yaml': 'version: 1\nversion: 1\n' }).lines).toEqual([
      'd.yaml:2:1: this key is already used in the same mapping',
    ]);
    expect(check({ 't.yaml': 'version: 1\nmonitors:\n\t- key: a\n' }).lines[0]).toMatch(
      /^t\.yaml:3:1: tabs are not allowed as indentation/,
    );
    expect(check({ 'm.yaml': 'version: 1\n---\nversion: 1\n' }).lines).toEqual([
      'm.yaml:2:1: holds several YAML documents (---): one per file',
    ]);
  });

  it('accepts anchors and aliases, and refuses an alias bomb without expanding it', () => {
    const anchors = `version: 1
monitors:
  - key: a
    target: https://a.example.com
    config: &common { timeout_ms: 3000 }
  - key: b
    target: https://b.example.com
    config: *common
`;
    const ok = check({ 'a.yaml': anchors });
    expect(ok.lines).toEqual([]);
    expect(ok.document?.monitors?.[1]?.config).toEqual({ timeout_ms: 3000 });
    let bomb = 'version: 1\nl0: &l0 [x, x, x, x, x, x, x, x, x, x]\n';
    for (let i = 1; i < 10; i++)
      bomb += `l${i}: &l${i} [${Array(10)
        .fill(`*l${i - 1}`)
        .join(', ')}]\n`;
    expect(check({ 'bomb.yaml': bomb }).lines).toEqual([
      'bomb.yaml:1:1: aliases expand to too many nodes (more than 1000 uses of an alias): refused',
    ]);
  });

  it('names a secret variable that is not set, and never sends the reference on', () => {
    const { document, lines } = check({ 'tocsin.yaml': VALID });
    expect(document).toBeNull();
    expect(lines).toEqual([
      'tocsin.yaml:7:12: destinations "ops-hook": config.url names the environment variable HOOK_PATH, which is not set',
    ]);
  });

  it('merges a folder’s files and places each problem in the file it came from', () => {
    const destinations =
      'version: 1\ndestinations:\n  - key: hook\n    type: generic_webhook\n    config: { url: https://h.example.com }\n';
    const monitors = `version: 1
monitors:
  - key: a
    target: https://a.example.com
    config: { alert_destinations: [hook] }
  - key: b
    target: https://b.example.com
    config: { alert_destinations: [hook, gone] }
`;
    const { lines } = check({ 'conf/destinations.yaml': destinations, 'conf/monitors.yaml': monitors });
    expect(lines).toEqual([
      'conf/monitors.yaml:8:42: monitors "b": config.alert_destinations[1] names destinations key "gone", which the document does not list',
    ]);
    const merged = check({
      'conf/destinations.yaml': destinations,
      'conf/monitors.yaml': monitors.replace(', gone', ''),
    });
    expect(merged.document?.monitors).toHaveLength(2);
    expect(merged.document?.destinations).toHaveLength(1);
  });

  it('requires version: 1 in every file and refuses unknown kinds', () => {
    expect(check({ 'a.yaml': 'monitors: []\n', 'b.yaml': 'version: 2\nwidgets: []\n' }).lines).toEqual([
      'a.yaml:1:1: version is required: version: 1',
      'b.yaml:1:10: version must be 1',
      'b.yaml:2:1: widgets is not a known kind (one of destinations, monitors, status_pages, maintenance_windows, sla_targets, custom_reports, scheduled_reports)',
    ]);
  });
});
