/**
 * CPU profile of the authenticated monitor read under load: Tocsin in a child with --cpu-prof, autocannon here.
 *   node bench/api/profile-read.ts [dir]   → writes the child's .cpuprofile into dir and prints the top functions
 */
import { SERVICE_NODE_FLAGS } from '../support/service-flags.ts';
import { fork } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const dir = process.argv[2] ?? '/tmp/tocsin-prof';
const child = fork(fileURLToPath(new URL('./api.servers.ts', import.meta.url)), ['tocsin'], {
  execArgv: [...SERVICE_NODE_FLAGS, '--cpu-prof', `--cpu-prof-dir=${dir}`],
  env: { ...process.env, BENCH_MONITORS: '1' },
});
const ready = await new Promise<{ port: number; keys: string[]; monitorIds: string[] }>((resolve) =>
  child.once('message', (m) => resolve(m as { port: number; keys: string[]; monitorIds: string[] })),
);
const url = `http://127.0.0.1:${ready.port}/api/v1/monitors/${ready.monitorIds[0]}`;
const result = await autocannon({
  url,
  connections: 50,
  duration: 10,
  headers: { authorization: `Bearer ${ready.keys[0]}` },
});
console.log(`req/s ${Math.round(result.requests.average)} non2xx ${result.non2xx}`);
child.kill('SIGTERM');
await new Promise((resolve) => child.once('exit', resolve));

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount: number;
}
const file = readdirSync(dir)
  .filter((f) => f.endsWith('.cpuprofile'))
  .sort()
  .at(-1)!;
const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as { nodes: Node[] };
const self = new Map<string, number>();
let total = 0;
for (const n of profile.nodes) {
  const where = `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.replace(/^.*\/work\/main\//, '')}:${n.callFrame.lineNumber}`;
  self.set(where, (self.get(where) ?? 0) + n.hitCount);
  total += n.hitCount;
}
for (const [where, hits] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 30)) {
  console.log(`${((hits / total) * 100).toFixed(1).padStart(5)} %  ${where}`);
}
