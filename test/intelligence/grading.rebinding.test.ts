/**
 * Security grading under the network policy, against a DNS server on loopback that rebinds: the graded host answers
 * a public-looking address first and loopback afterwards, and `mta-sts.<domain>` points at a blocked address. Every
 * connection grading makes must go to the address vetted first, and never to the blocked ones. Connections are
 * recorded and stopped before any packet leaves (test/support/connections.ts).
 */
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EventsService } from '../../src/modules/events/index.ts';
import { IntelligenceService, SecurityGradesRole, type GradedMonitor } from '../../src/modules/intelligence/index.ts';
import { measureDomain } from '../../src/modules/intelligence/security.measure.ts';
import { createOrgs } from '../../src/modules/orgs/index.ts';
import { ManualClock } from '../../src/platform/clock.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { createDnsServerResolver, createOutboundConnector, type NetworkPolicy } from '../../src/platform/net/index.ts';
import { stopConnectionsAfterLookup, type ConnectionRecorder } from '../support/connections.ts';
import { createTestDatabase, type TestDatabase } from '../support/databases.ts';
import { DAY_MS, generateCertificate, startDnsServer, type DnsServer } from '../support/targets/index.ts';

let dns: DnsServer;
let strict: NetworkPolicy;
let server: Server;
let port: number;
let accepted = 0;
let recorder: ConnectionRecorder | undefined;
let db: TestDatabase | undefined;

beforeAll(async () => {
  dns = await startDnsServer({
    '_mta-sts.shop.test': { TXT: ['v=STSv1; id=20260101'] },
    'mta-sts.shop.test': { A: ['127.0.0.1'] },
    '_mta-sts.mail.test': { TXT: ['v=STSv1; id=20260101'] },
    'mta-sts.mail.test': { A: ['127.0.0.1'] },
    '_mta-sts.rebind.test': { TXT: ['v=STSv1; id=1'] },
  });
  strict = { allowPrivateTargets: false, resolver: createDnsServerResolver([dns.resolver], 1000) };
  // What a rebinding attacker would want reached: a TLS server on loopback.
  const cert = await generateCertificate({ commonName: 'shop.test', altNames: ['shop.test'] });
  server = createServer({ key: cert.key, cert: cert.cert }, (_req, res) => res.end('ok'));
  server.on('secureConnection', () => accepted++);
  server.on('connection', () => accepted++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await dns.close();
  await db?.drop();
});
afterEach(() => {
  recorder?.stop();
  recorder = undefined;
});

const options = (connector = createOutboundConnector(strict).pinned()) => ({
  connector,
  resolver: dns.resolver,
  timeoutMs: 1000,
  now: Date.now(),
});

describe('security grading connects to vetted addresses only', () => {
  it('grades a host that rebinds to loopback at the address vetted first, mta-sts host refused', async () => {
    dns.answerInTurn('shop.test', 'A', [['8.8.8.8'], ['127.0.0.1']]);
    db = await createTestDatabase('sqlite');
    const clock = new ManualClock(Date.now());
    const orgs = createOrgs({ database: db.database, clock, defaultPlan: 'team', defaultRegion: 'local' });
    const org = (await orgs.createOrganization({ name: 'o' })).id;
    const events = new EventsService({ database: db.database, clock });
    const monitor: GradedMonitor = {
      id: 'mon_01kgraderebnd00000000000000',
      organizationId: org,
      name: 'Shop',
      type: 'http',
      target: `https://shop.test:${port}/`,
      paused: false,
      config: {},
    };
    const lookup = { findManyAnywhere: async () => [{ ...monitor, environment: 'production' }] };
    const role = new SecurityGradesRole({
      database: db.database,
      clock,
      logger: createLogger({ level: 'silent', pretty: false }),
      intelligence: new IntelligenceService({
        database: db.database,
        clock,
        events,
        monitors: lookup,
        incidents: null,
      }),
      monitors: lookup,
      intervalMs: DAY_MS,
      tickMs: 60_000,
      timeoutMs: 1000,
      connector: createOutboundConnector(strict),
      resolver: dns.resolver,
    });
    recorder = stopConnectionsAfterLookup();
    expect(await role.grade(monitor)).toBe(true);
    // A handshake per TLS version (none succeeds, so nothing more on TLS) and the http:// page: all at the first,
    // vetted answer, none at loopback (the mta-sts host included).
    expect(recorder.addresses.length).toBeGreaterThanOrEqual(5);
    expect(new Set(recorder.addresses)).toEqual(new Set(['8.8.8.8']));
    expect(accepted).toBe(0);
  });

  it('refuses mta-sts.<domain> when it resolves to a blocked address (no connection at all)', async () => {
    recorder = stopConnectionsAfterLookup();
    const facts = await measureDomain('mail.test', options());
    expect(facts.mtaSts).toEqual({ record: true, mode: null });
    expect(recorder.addresses).toEqual([]);
    // The control: with private targets allowed the same measurement does try loopback, so the test can fail.
    const open = createOutboundConnector({ ...strict, allowPrivateTargets: true }).pinned();
    await measureDomain('mail.test', options(open));
    expect(recorder.addresses).toEqual(['127.0.0.1']);
  });

  it('fetches mta-sts.<domain> at the address vetted first when the name rebinds', async () => {
    dns.answerInTurn('mta-sts.rebind.test', 'A', [['8.8.8.8'], ['127.0.0.1']]);
    recorder = stopConnectionsAfterLookup();
    const facts = await measureDomain('rebind.test', options());
    expect(facts.mtaSts).toEqual({ record: true, mode: null });
    expect(recorder.addresses).toEqual(['8.8.8.8']);
    expect(dns.queries()).toBeGreaterThan(0);
  });
});
