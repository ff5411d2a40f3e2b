import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { SecureContextOptions } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventsService } from '../../src/modules/events/index.ts';
import { IntelligenceService } from '../../src/modules/intelligence/index.ts';
import { SecurityGradesRole, type GradedMonitor } from '../../src/modules/intelligence/security-grades.role.ts';
import { measureTls } from '../../src/modules/intelligence/security.measure.ts';
import { gradeTls } from '../../src/modules/intelligence/tls.grade.ts';
import { createOrgs } from '../../src/modules/orgs/index.ts';
import { ManualClock } from '../../src/platform/clock.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { createOutboundConnector, systemResolver } from '../../src/platform/net/index.ts';
import { createTestDatabase, type TestDatabase } from '../support/databases.ts';
import { DAY_MS, generateCertificate, generateTestCa, type Pem } from '../support/targets/index.ts';

interface Tls {
  url: string;
  port: number;
  close(): Promise<void>;
}

/** A local HTTPS server with chosen TLS settings; answers with HSTS unless told otherwise. */
async function tlsServer(
  cert: Pem,
  options: SecureContextOptions & { minVersion?: string; maxVersion?: string },
  hsts = true,
): Promise<Tls> {
  const server: Server = createServer({ key: cert.key, cert: cert.cert, ...(options as object) }, (_req, res) => {
    res.writeHead(200, hsts ? { 'strict-transport-security': 'max-age=31536000; includeSubDomains' } : {});
    res.end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}/`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const MODERN = {
  minVersion: 'TLSv1.2',
  ciphers: 'TLS_AES_128_GCM_SHA256:TLS_AES_256_GCM_SHA384:ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-ECDSA-AES256-GCM-SHA384',
};
/** The servers of these tests are on loopback: private targets allowed. */
const local = createOutboundConnector({ allowPrivateTargets: true, resolver: systemResolver });
const LEGACY = { minVersion: 'TLSv1', ciphers: 'DEFAULT@SECLEVEL=0' };

describe('TLS measurement and grades against local servers', () => {
  let ca: Pem;
  let leaf: Pem;
  const servers: Tls[] = [];
  const now = () => Date.now();

  beforeAll(async () => {
    ca = await generateTestCa();
    leaf = await generateCertificate({ commonName: '127.0.0.1', altNames: ['127.0.0.1'], ca });
  });
  afterAll(async () => {
    for (const s of servers) await s.close();
  });

  async function serve(cert: Pem, options: object, hsts = true): Promise<Tls> {
    const s = await tlsServer(cert, options, hsts);
    servers.push(s);
    return s;
  }

  it('grades a TLS 1.2/1.3-only server with AEAD suites, an EC key and long HSTS A+', async () => {
    const s = await serve(leaf, MODERN);
    const measured = await measureTls('127.0.0.1', s.port, {
      ca: ca.cert,
      timeoutMs: 3000,
      now: now(),
      connector: local,
    });
    expect(measured!.facts.protocols).toEqual({ TLSv1: false, 'TLSv1.1': false, 'TLSv1.2': true, 'TLSv1.3': true });
    expect(measured!.facts.certificate).toMatchObject({
      keyType: 'EC',
      keyBits: 256,
      trusted: true,
      hostnameMatch: true,
      selfSigned: false,
    });
    expect(measured!.facts.certificate.signatureAlgorithm).toMatch(/sha256/i);
    expect(measured!.facts.hstsMaxAge).toBe(31_536_000);
    expect(measured!.facts.suites.every((x) => x.aead && x.forwardSecrecy)).toBe(true);
    expect(gradeTls(measured!.facts)).toMatchObject({ grade: 'A+' });
  });

  it('caps a server that still offers TLS 1.0 at B, and one without HSTS at A', async () => {
    const legacy = await serve(leaf, LEGACY);
    const m = await measureTls('127.0.0.1', legacy.port, {
      ca: ca.cert,
      timeoutMs: 3000,
      now: now(),
      connector: local,
    });
    expect(m!.facts.protocols.TLSv1).toBe(true);
    const g = gradeTls(m!.facts);
    expect(g.grade).toBe('B');
    expect(g.reasons).toContain('TLS 1.0 or TLS 1.1 is offered');
    const noHsts = await serve(leaf, MODERN, false);
    const n = await measureTls('127.0.0.1', noHsts.port, {
      ca: ca.cert,
      timeoutMs: 3000,
      now: now(),
      connector: local,
    });
    expect(gradeTls(n!.facts)).toMatchObject({ grade: 'A', reasons: ['no Strict-Transport-Security header'] });
  });

  it('grades a self-signed certificate T and an expired one T', async () => {
    const selfSigned = await serve(
      await generateCertificate({ commonName: '127.0.0.1', altNames: ['127.0.0.1'] }),
      MODERN,
    );
    const a = await measureTls('127.0.0.1', selfSigned.port, {
      ca: ca.cert,
      timeoutMs: 3000,
      now: now(),
      connector: local,
    });
    expect(gradeTls(a!.facts)).toMatchObject({ grade: 'T', reasons: ['certificate is self-signed'] });
    const expired = await serve(
      await generateCertificate({
        commonName: '127.0.0.1',
        altNames: ['127.0.0.1'],
        ca,
        notBefore: new Date(Date.now() - 30 * DAY_MS),
        notAfter: new Date(Date.now() - DAY_MS),
      }),
      MODERN,
    );
    const b = await measureTls('127.0.0.1', expired.port, {
      ca: ca.cert,
      timeoutMs: 3000,
      now: now(),
      connector: local,
    });
    expect(gradeTls(b!.facts).grade).toBe('T');
    expect(gradeTls(b!.facts).reasons).toContain('certificate expired');
  });

  describe('the grading role (SQLite)', () => {
    let db: TestDatabase;
    afterAll(async () => db?.drop());

    it('records grades and raises security_grade_downgraded then security_grade_recovered through the outbox', async () => {
      db = await createTestDatabase('sqlite');
      const clock = new ManualClock(Date.now());
      const orgs = createOrgs({ database: db.database, clock, defaultPlan: 'team', defaultRegion: 'local' });
      const org = (await orgs.createOrganization({ name: 'o' })).id;
      const events = new EventsService({ database: db.database, clock });
      const good = await serve(leaf, MODERN);
      const weak = await serve(leaf, LEGACY);
      const monitor: GradedMonitor = {
        id: 'mon_01kgrade0000000000000000000',
        organizationId: org,
        name: 'Shop',
        type: 'http',
        target: good.url,
        paused: false,
        config: {},
      };
      const lookup = { findManyAnywhere: async () => [{ ...monitor, environment: 'production' }] };
      const intelligence = new IntelligenceService({
        database: db.database,
        clock,
        events,
        monitors: lookup,
        incidents: null,
      });
      const role = new SecurityGradesRole({
        database: db.database,
        clock,
        logger: createLogger({ level: 'silent', pretty: false }),
        intelligence,
        monitors: lookup,
        intervalMs: DAY_MS,
        tickMs: 60_000,
        timeoutMs: 3000,
        connector: local,
        tlsCa: ca.cert,
      });
      expect(await role.grade(monitor)).toBe(true);
      monitor.target = weak.url;
      clock.advance(DAY_MS);
      await role.grade(monitor);
      monitor.target = good.url;
      clock.advance(DAY_MS);
      await role.grade(monitor);
      const sent = await events.readAfter(0, 100);
      expect(sent.map((e) => [e.type, e.payload.previous_grade, e.payload.grade])).toEqual([
        ['security_grade_downgraded', 'A+', 'B'],
        ['security_grade_recovered', 'B', 'A+'],
      ]);
      expect(sent[0]!.payload.summary).toBe(
        'TLS grade dropped from A+ to B: TLS 1.0 or TLS 1.1 is offered; non-AEAD (CBC) suites are also accepted.',
      );
      const privateRole = new SecurityGradesRole({
        database: db.database,
        clock,
        logger: createLogger({ level: 'silent', pretty: false }),
        intelligence,
        monitors: lookup,
        intervalMs: DAY_MS,
        tickMs: 60_000,
        timeoutMs: 3000,
        connector: createOutboundConnector({ allowPrivateTargets: false, resolver: systemResolver }),
      });
      expect(await privateRole.grade(monitor)).toBe(false);
    });
  });
});
