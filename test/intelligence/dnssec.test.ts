import { createSocket, type Socket } from 'node:dgram';
import { createServer, type Server } from 'node:net';
import * as dnsPacket from 'dns-packet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gradeDomain } from '../../src/modules/intelligence/domain.grade.ts';
import { measureDnssec } from '../../src/modules/intelligence/dnssec.measure.ts';
import { measureDomain } from '../../src/modules/intelligence/security.measure.ts';
import { createOutboundConnector, systemResolver } from '../../src/platform/net/index.ts';

// The local resolver is on loopback: an operator-configured resolver is a trusted endpoint anyway.
const connector = createOutboundConnector({ allowPrivateTargets: true, resolver: systemResolver });

/**
 * A recursive-resolver stand-in on loopback (UDP and TCP, one port) serving zones the way a resolver hands them
 * over with the DO bit: signed.test (keys, signatures, DS at the parent), plain.test (unsigned), broken.test (DS
 * but no keys), island.test (signed, no DS), big.test (signed; its DNSKEY answer is truncated over UDP).
 */
interface Zone {
  dnskey: boolean;
  rrsig: boolean;
  ds: boolean;
  truncateKeys?: boolean;
}
const ZONES: Record<string, Zone> = {
  'signed.test': { dnskey: true, rrsig: true, ds: true },
  'plain.test': { dnskey: false, rrsig: false, ds: false },
  'broken.test': { dnskey: false, rrsig: false, ds: true },
  'island.test': { dnskey: true, rrsig: true, ds: false },
  'big.test': { dnskey: true, rrsig: true, ds: true, truncateKeys: true },
};

function rrsig(name: string, covered: string): dnsPacket.Answer {
  return {
    type: 'RRSIG',
    name,
    ttl: 300,
    class: 'IN',
    data: {
      typeCovered: covered,
      algorithm: 13,
      labels: name.split('.').length,
      originalTTL: 300,
      expiration: 1_800_000_000,
      inception: 1_700_000_000,
      keyTag: 12345,
      signersName: name,
      signature: Buffer.alloc(64, 7),
    },
  } as dnsPacket.Answer;
}

function answer(query: dnsPacket.DecodedPacket, tcp: boolean): dnsPacket.Packet {
  const q = query.questions![0]!;
  const name = q.name.toLowerCase().replace(/\.$/, '');
  const zoneName = Object.keys(ZONES).find((z) => name === z || name.endsWith(`.${z}`));
  const base = { type: 'response' as const, id: query.id, questions: [q] };
  if (!zoneName) return { ...base, flags: dnsPacket.RECURSION_AVAILABLE | 3 };
  const zone = ZONES[zoneName]!;
  const soa: dnsPacket.Answer = {
    type: 'SOA',
    name: zoneName,
    ttl: 300,
    class: 'IN',
    data: {
      mname: `ns1.${zoneName}`,
      rname: `hostmaster.${zoneName}`,
      serial: 1,
      refresh: 3600,
      retry: 600,
      expire: 86400,
      minimum: 300,
    },
  };
  const answers: dnsPacket.Answer[] = [];
  let authorities: dnsPacket.Answer[] = [];
  let flags = dnsPacket.RECURSION_AVAILABLE;
  if (name !== zoneName) authorities = [soa];
  else if (q.type === 'SOA') answers.push(soa, ...(zone.rrsig ? [rrsig(zoneName, 'SOA')] : []));
  else if (q.type === 'DNSKEY' && zone.dnskey) {
    if (zone.truncateKeys && !tcp) flags |= dnsPacket.TRUNCATED_RESPONSE;
    else
      answers.push(
        {
          type: 'DNSKEY',
          name: zoneName,
          ttl: 300,
          class: 'IN',
          data: { flags: 257, algorithm: 13, key: Buffer.alloc(64, 1) },
        },
        ...(zone.rrsig ? [rrsig(zoneName, 'DNSKEY')] : []),
      );
  } else if (q.type === 'DS' && zone.ds)
    answers.push({
      type: 'DS',
      name: zoneName,
      ttl: 300,
      class: 'IN',
      data: { keyTag: 12345, algorithm: 13, digestType: 2, digest: Buffer.alloc(32, 9) },
    });
  else authorities = [soa];
  return { ...base, flags, answers, authorities };
}

describe('DNSSEC in the domain grade (a local resolver over UDP and TCP)', () => {
  let udp: Socket;
  let tcp: Server;
  let resolver: string;
  const seen: Array<{ type: string; do: boolean; cd: boolean; tcp: boolean }> = [];

  const record = (q: dnsPacket.DecodedPacket, overTcp: boolean) => {
    const opt = q.additionals?.find((a) => a.type === 'OPT') as dnsPacket.OptAnswer | undefined;
    seen.push({
      type: q.questions![0]!.type,
      do: ((opt?.flags ?? 0) & dnsPacket.DNSSEC_OK) !== 0,
      cd: q.flag_cd,
      tcp: overTcp,
    });
  };

  beforeAll(async () => {
    tcp = createServer((socket) => {
      let buffer = Buffer.alloc(0);
      socket.on('data', (chunk: Buffer) => {
        buffer = Buffer.concat([buffer, chunk]);
        if (buffer.length < 2 || buffer.length < 2 + buffer.readUInt16BE(0)) return;
        const q = dnsPacket.streamDecode(buffer) as dnsPacket.DecodedPacket;
        record(q, true);
        socket.end(dnsPacket.streamEncode(answer(q, true)));
      });
    });
    await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
    const port = (tcp.address() as { port: number }).port;
    udp = createSocket('udp4');
    udp.on('message', (msg, rinfo) => {
      const q = dnsPacket.decode(msg);
      record(q, false);
      udp.send(dnsPacket.encode(answer(q, false)), rinfo.port, rinfo.address);
    });
    await new Promise<void>((resolve) => udp.bind(port, '127.0.0.1', resolve));
    resolver = `127.0.0.1:${port}`;
  });
  afterAll(async () => {
    udp.close();
    await new Promise((resolve) => tcp.close(resolve));
  });

  it.each([
    ['signed.test', 'secure', 'signed.test', 'zone signed.test is signed (DNSKEY and RRSIG) with a DS at the parent'],
    ['www.signed.test', 'secure', 'signed.test', 'zone signed.test is signed'],
    ['plain.test', 'insecure', 'plain.test', 'DNSSEC not enabled: zone plain.test is not signed'],
    ['broken.test', 'bogus', 'broken.test', 'the parent has a DS for broken.test but the zone serves no DNSKEY'],
    ['island.test', 'insecure', 'island.test', 'zone island.test is signed but the parent has no DS'],
    ['big.test', 'secure', 'big.test', 'zone big.test is signed'],
  ])('%s → %s', async (domain, status, zone, detail) => {
    const facts = await measureDnssec(domain, { resolver, timeoutMs: 2000, connector });
    expect(facts).toMatchObject({ status, zone, validatedByResolver: false });
    expect(facts!.detail).toContain(detail);
  });

  it('asks with the DO and CD bits, and again over TCP when the UDP answer is truncated', async () => {
    seen.length = 0;
    await measureDnssec('big.test', { resolver, timeoutMs: 2000, connector });
    expect(seen.every((q) => q.do && q.cd)).toBe(true);
    expect(seen.filter((q) => q.type === 'DNSKEY').map((q) => q.tcp)).toEqual([false, true]);
  });

  it('a resolver that does not answer leaves DNSSEC not tested', async () => {
    const silent = createSocket('udp4');
    await new Promise<void>((resolve) => silent.bind(0, '127.0.0.1', resolve));
    try {
      const to = `127.0.0.1:${silent.address().port}`;
      expect(await measureDnssec('signed.test', { resolver: to, timeoutMs: 200, connector })).toBeUndefined();
    } finally {
      silent.close();
    }
  });

  it('the domain grade scores it: secure 10/10, not signed 2/10, with the reason', async () => {
    const graded = async (domain: string) =>
      gradeDomain(await measureDomain(domain, { resolver, timeoutMs: 2000, now: Date.now(), connector }));
    const secure = await graded('signed.test');
    const plain = await graded('plain.test');
    expect(secure.not_tested).not.toContain('DNSSEC');
    expect(secure.reasons).toContainEqual(expect.stringContaining('zone signed.test is signed'));
    expect(plain.reasons).toContain('DNSSEC not enabled: zone plain.test is not signed');
    // Same facts otherwise (no SPF, DMARC, CAA … in these zones): only DNSSEC separates the scores.
    expect(secure.score).toBeGreaterThan(plain.score);
  });
});
