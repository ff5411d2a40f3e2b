/**
 * The peers of bench/probes/types.bench.ts in their own process (their CPU is not the probes'): bare HTTP and HTTPS servers,
 * SMTP servers (plain, STARTTLS) and a WebSocket echo server, on loopback. Sends `{ports, ca}` over IPC.
 */
import { createServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { generateCertificate, generateTestCa } from '../../test/support/targets/certificates.ts';
import { startSmtpTarget } from '../../test/support/targets/smtp.target.ts';
import { startWebSocketTarget } from '../../test/support/targets/websocket.target.ts';

const ca = await generateTestCa();
const leaf = await generateCertificate({ commonName: 'localhost', altNames: ['localhost', '127.0.0.1'], ca });
const http = createServer((_req, res) => res.end('ok'));
await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
// The TLS baseline: an https check's handshake is what STARTTLS adds to an smtp check.
const https = createHttpsServer({ key: leaf.key, cert: leaf.cert }, (_req, res) => res.end('ok'));
await new Promise<void>((resolve) => https.listen(0, '127.0.0.1', resolve));
const [smtp, smtpTls, ws] = await Promise.all([
  startSmtpTarget(),
  startSmtpTarget({ cert: leaf }),
  startWebSocketTarget(),
]);
process.send!({
  ports: {
    http: (http.address() as AddressInfo).port,
    https: (https.address() as AddressInfo).port,
    smtp: smtp.port,
    smtpTls: smtpTls.port,
    ws: ws.port,
  },
  ca: ca.cert,
});
process.on('disconnect', () => process.exit(0));
