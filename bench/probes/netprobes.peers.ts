/**
 * Peers of bench/probes/netprobes.bench.ts, in their own process: an HTTP server answering 200 "ok", and RDAP domain
 * objects under /rdap/domain/<name> (expiring in a year), and a UDP echo answering "pong <datagram>". Reports
 * both ports over IPC.
 */
import { createSocket } from 'node:dgram';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const expiry = new Date(Date.now() + 365 * 86_400_000).toISOString();
const server = createServer((req, res) => {
  const url = req.url ?? '/';
  if (url.startsWith('/rdap/domain/')) {
    const name = decodeURIComponent(url.slice('/rdap/domain/'.length));
    const body = JSON.stringify({
      objectClassName: 'domain',
      ldhName: name,
      status: ['active'],
      events: [
        { eventAction: 'registration', eventDate: '2001-01-01T00:00:00Z' },
        { eventAction: 'expiration', eventDate: expiry },
      ],
      entities: [{ roles: ['registrar'], vcardArray: ['vcard', [['fn', {}, 'text', 'Bench Registrar']]] }],
      nameservers: [{ ldhName: 'ns1.bench.test' }, { ldhName: 'ns2.bench.test' }],
    });
    res.writeHead(200, { 'content-type': 'application/rdap+json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
    return;
  }
  res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '2' });
  res.end('ok');
});
server.keepAliveTimeout = 1000;
const udp = createSocket('udp4');
udp.on('message', (msg, rinfo) => udp.send(Buffer.concat([Buffer.from('pong '), msg]), rinfo.port, rinfo.address));
udp.bind(0, '127.0.0.1', () => {
  server.listen(0, '127.0.0.1', () => {
    process.send?.({ http: (server.address() as AddressInfo).port, udp: udp.address().port });
  });
});
process.on('disconnect', () => process.exit(0));
