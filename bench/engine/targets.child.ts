/**
 * Bench targets: a few bare node:http servers answering 200 "ok", in their own process. Reports ports over IPC.
 *   targets.child.ts [count = 4] [delayMs = 0] [flapMs = 0]
 * `delayMs` holds every answer that long (a target slower than the runner's own work, so a runner's concurrency
 * slots, not its CPU, bound its rate). With `flapMs`, paths under /flap/ answer 503 and 200 in turns of `flapMs`
 * (monitors that go down and recover, for counting alerts).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const count = Number(process.argv[2] ?? 4);
const delayMs = Number(process.argv[3] ?? 0);
const flapMs = Number(process.argv[4] ?? 0);
const ports: number[] = [];
for (let i = 0; i < count; i++) {
  const server = createServer((req, res) => {
    const down = flapMs > 0 && req.url?.startsWith('/flap/') === true && Math.floor(Date.now() / flapMs) % 2 === 1;
    const answer = () => {
      res.writeHead(down ? 503 : 200, { 'content-type': 'text/plain', 'content-length': '2' });
      res.end(down ? 'no' : 'ok');
    };
    if (delayMs > 0) setTimeout(answer, delayMs);
    else answer();
  });
  server.listen(0, '127.0.0.1', () => {
    ports.push((server.address() as AddressInfo).port);
    if (ports.length === count) process.send?.({ ports });
  });
}
process.on('disconnect', () => process.exit(0));
