/**
 * Real `tocsin serve` and `tocsin runner` processes for the scale-out benchmark, measured from outside through /proc
 * (CPU = utime + stime), and a webhook receiver that records every delivery by event and delivery id.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';

/** USER_HZ: Linux reports process times in 1/100 s on every architecture Node supports. */
const TICKS_PER_SECOND = 100;
const BIN = new URL('../../bin/tocsin.js', import.meta.url).pathname;

export interface Proc {
  name: string;
  child: ChildProcess;
  /** The HTTP port of a serve process; null for a runner. */
  port: number | null;
}

export function cpuMsOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may contain spaces) start at field 3; utime and stime are 14 and 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

/** Busy and total jiffies of the whole machine (first line of /proc/stat), for the machine's CPU use in a window. */
export function machineTicks(): { busy: number; total: number } {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const idle = fields[3]! + fields[4]!; // idle + iowait
  const total = fields.reduce((a, b) => a + b, 0);
  return { busy: total - idle, total };
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export async function startServe(name: string, env: Record<string, string>, nodeFlags: string[]): Promise<Proc> {
  const port = await freePort();
  const child = spawn(process.execPath, [...nodeFlags, BIN, 'serve'], {
    env: { ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const end = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode} before it was ready`);
    if (Date.now() > end) throw new Error(`${name} not ready within 60 s`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/readyz`)).status === 200) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { name, child, port };
}

/** Starts a runner and resolves once it logged "runner connected" (its start-up is slow on a loaded machine). */
export async function startRunner(
  name: string,
  env: Record<string, string>,
  nodeFlags: string[],
  options: { region: string; controlPlane: string; token: string; concurrency: number },
): Promise<Proc> {
  const child = spawn(
    process.execPath,
    [
      ...nodeFlags,
      BIN,
      'runner',
      '--region',
      options.region,
      '--control-plane',
      options.controlPlane,
      '--concurrency',
      String(options.concurrency),
    ],
    // The token goes through the environment, not argv (argv is visible in ps). Info level for the connected line.
    {
      env: { ...env, TOCSIN_RUNNER_TOKEN: options.token, LOG_LEVEL: 'info', LOG_FORMAT: 'json' },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let out = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} not connected within 120 s`)), 120_000);
    child.stdout!.on('data', (c: Buffer) => {
      // Only the start is kept: the connected line, or why it did not come.
      if (out.length < 10_000) out += c.toString();
      if (out.includes('"runner connected"')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => reject(new Error(`${name} exited with ${code}: ${out.slice(-500)}`)));
  });
  return { name, child, port: null };
}

/** SIGTERM (graceful: in-flight checks finish and are stored) and the exit codes. */
export async function stopAll(procs: Proc[]): Promise<(number | null)[]> {
  const exits = procs.map(
    ({ child }) =>
      new Promise<number | null>((resolve) =>
        child.exitCode !== null || child.signalCode !== null
          ? resolve(child.exitCode)
          : child.once('exit', (code) => resolve(code)),
      ),
  );
  for (const { child } of procs) if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  return Promise.all(exits);
}

export interface Delivery {
  eventId: string;
  deliveryId: string;
  type: string;
  at: number;
  /** The event's monitor and `occurred_at` (for latencies); null when the event has none or the body did not parse. */
  monitorId: string | null;
  occurredAt: number | null;
}

/** A webhook endpoint answering 200 at once; keeps (event id, delivery id) of every request. */
export async function startReceiver(): Promise<{ url: string; deliveries: Delivery[]; close(): Promise<void> }> {
  const deliveries: Delivery[] = [];
  const server: Server = createHttpServer((req, res) => {
    // Arrival of the request, not the end of its body: a delivery has reached the receiver when it connects.
    const at = Date.now();
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      try {
        // The standard body (generic_webhook.render.ts): `event` names the type, `timestamp` is when it happened.
        const json = JSON.parse(body) as {
          id?: string;
          event?: string;
          timestamp?: string;
          monitor?: { id?: string } | null;
        };
        const occurredAt = json.timestamp === undefined ? NaN : Date.parse(json.timestamp);
        deliveries.push({
          eventId: String(json.id),
          deliveryId: String(req.headers['x-service-delivery']),
          type: String(json.event),
          at,
          monitorId: json.monitor?.id ?? null,
          occurredAt: Number.isNaN(occurredAt) ? null : occurredAt,
        });
      } catch {
        deliveries.push({
          eventId: 'unparsable',
          deliveryId: 'unparsable',
          type: 'unparsable',
          at,
          monitorId: null,
          occurredAt: null,
        });
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"received":true}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hooks/tocsin`,
    deliveries,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** Events delivered, requests, events that got more than one delivery id, and delivery ids sent more than once. */
export function deliveryFigures(deliveries: Delivery[]): {
  events: number;
  requests: number;
  eventsWithTwoDeliveries: number;
  deliveriesSentAgain: number;
} {
  const byEvent = new Map<string, Set<string>>();
  const byDelivery = new Map<string, number>();
  for (const d of deliveries) {
    byEvent.set(d.eventId, (byEvent.get(d.eventId) ?? new Set()).add(d.deliveryId));
    byDelivery.set(d.deliveryId, (byDelivery.get(d.deliveryId) ?? 0) + 1);
  }
  return {
    events: byEvent.size,
    requests: deliveries.length,
    eventsWithTwoDeliveries: [...byEvent.values()].filter((s) => s.size > 1).length,
    deliveriesSentAgain: [...byDelivery.values()].filter((n) => n > 1).length,
  };
}
