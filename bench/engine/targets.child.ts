/** Bench targets: a few bare node:http servers answering 200 "ok", in their own process. Reports ports over IPC. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const count = Number(process.argv[2] ?? 4);
const ports: number[] = [];
for (let i = 0; i < count; i++) {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '2' });
    res.end('ok');
  });
  server.listen(0, '127.0.0.1', () => {
    ports.push((server.address() as AddressInfo).port);
    if (ports.length === count) process.send?.({ ports });
  });
}
process.on('disconnect', () => process.exit(0));
