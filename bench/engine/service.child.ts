/**
 * Bench service process: the check engine's in-process runner (the `local-runner` role's code path:
 * LocalWorkSource → CheckRunner → CheckEngine → ExecutionsStore) for warm-up + window, then reports
 * lateness samples, CPU, RSS and the (monitor, region, slot) keys it ran (kept off the heap while measuring),
 * as one JSON line over IPC.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { loadConfig } from '../../src/config/index.ts';
import { createTocsin } from '../../src/main.ts';
import {
  CheckEngine,
  CheckRunner,
  LocalWorkSource,
  createProbeRegistry,
  monitorStatusListener,
} from '../../src/modules/checks/index.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { RunLog } from './run-log.ts';

const warmMs = Number(process.env.BENCH_WARM_MS);
const windowMs = Number(process.env.BENCH_WINDOW_MS);
const owner = process.env.BENCH_OWNER ?? `bench_${process.pid}`;

const config = loadConfig();
const tocsin = await createTocsin(config, {
  logger: createLogger({ level: 'warn', pretty: false }),
  background: false,
  migrate: false,
});
const runLog = new RunLog();
let windowStart = Infinity;
let windowEnd = Infinity;
let checksInWindow = 0;
const runner = new CheckRunner({
  // BENCH_SINK=noop: the same engine without execution storage, to split engine cost from storage cost.
  source: new LocalWorkSource(
    process.env.BENCH_SINK === 'noop'
      ? new CheckEngine({
          database: tocsin.database,
          clock: tocsin.clock,
          logger: tocsin.logger,
          executions: { recordBatch: async () => {} },
          transitions: [
            monitorStatusListener(tocsin.services.monitors),
            { name: 'incidents', onTransition: (tx, t) => tocsin.services.incidents.handleMonitorTransition(tx, t) },
          ],
          events: tocsin.services.events,
          monitors: tocsin.services.monitors,
          leaseMs: config.scheduler.leaseSeconds * 1000,
        })
      : tocsin.services.checks.engine,
    owner,
    config.scheduler.localRegions,
  ),
  probes: createProbeRegistry(),
  clock: tocsin.clock,
  logger: tocsin.logger,
  concurrency: config.scheduler.concurrency,
  allowPrivateTargets: true,
  ...(process.env.BENCH_LOOKAHEAD_MS !== undefined && { lookaheadMs: Number(process.env.BENCH_LOOKAHEAD_MS) }),
  onResult(check, observation) {
    const inWindow = check.dueAt >= windowStart && check.dueAt < windowEnd;
    if (inWindow) checksInWindow++;
    runLog.add(check.monitorId, check.regionCode, check.dueAt, inWindow ? observation.started_at - check.dueAt : null);
  },
});
const started = Date.now();
runner.start();
await new Promise((r) => setTimeout(r, warmMs));
windowStart = Date.now();
windowEnd = windowStart + windowMs;
const loop = monitorEventLoopDelay({ resolution: 10 });
loop.enable();
// BENCH_HEAP_SAMPLE=dir: V8's sampling heap profiler over the window, objects the GC collected included (what a
// check allocates, not only what it keeps); written as dir/service-<pid>.heapprofile (DevTools loads it).
// BENCH_HEAP_LIVE=1 with it: only the sampled objects still alive at the window's end (what the process keeps);
// BENCH_HEAP_LIVE=promoted: those that outlived the young generation (what drives the full collections).
const heapSession = process.env.BENCH_HEAP_SAMPLE ? new Session() : null;
if (heapSession) {
  heapSession.connect();
  await heapSession.post('HeapProfiler.startSampling', {
    samplingInterval: 4096,
    includeObjectsCollectedByMajorGC: process.env.BENCH_HEAP_LIVE !== '1',
    includeObjectsCollectedByMinorGC: !process.env.BENCH_HEAP_LIVE,
  });
}
const cpu0 = process.cpuUsage();
const rss: number[] = [];
const heap: number[] = [];
const sampler = setInterval(() => {
  const m = process.memoryUsage();
  rss.push(m.rss);
  heap.push(m.heapUsed);
}, 1000);
await new Promise((r) => setTimeout(r, windowMs));
const cpu = process.cpuUsage(cpu0);
if (heapSession) {
  const { profile } = await heapSession.post('HeapProfiler.stopSampling');
  writeFileSync(join(process.env.BENCH_HEAP_SAMPLE!, `service-${process.pid}.heapprofile`), JSON.stringify(profile));
  heapSession.disconnect();
}
loop.disable();
clearInterval(sampler);
await runner.stop();
await tocsin.close();
const { keys, lateness } = runLog.export();
process.send?.(
  {
    owner,
    elapsedMs: Date.now() - started,
    windowMs,
    checksInWindow,
    cpuMs: (cpu.user + cpu.system) / 1000,
    rssAvg: rss.reduce((a, b) => a + b, 0) / Math.max(1, rss.length),
    rssMax: Math.max(...rss),
    heapAvg: heap.reduce((a, b) => a + b, 0) / Math.max(1, heap.length),
    loopDelayP99Ms: loop.percentile(99) / 1e6,
    loopDelayMaxMs: loop.max / 1e6,
    lateness,
    keys,
  },
  undefined,
  {},
  () => process.disconnect?.(),
);
