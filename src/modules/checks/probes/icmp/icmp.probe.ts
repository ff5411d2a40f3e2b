/**
 * ICMP probe: `config.count` echo requests (default 3, 200 ms apart) to the target's vetted address through the
 * system `ping`; up when at most `config.max_loss_percent` (default 50: one lost echo of three is no outage, most of
 * them is) were lost and the `response_time` assertions hold against the average round trip.
 *
 * The observation's `duration_ms` is the average round-trip time, not the wall time of the check (which is mostly
 * the 200 ms spacing of the requests): latency charts, percentiles, `alert_latency_ms` and anomaly baselines of a
 * ping monitor are about the round trip. The wall time is in `details.elapsed_ms`; min/avg/max in `details`.
 */
import type { ChildProcess } from 'node:child_process';
import { isIP } from 'node:net';
import { evaluateAssertions } from '../../assertions/index.ts';
import type { Observation, Probe, ProbeContext, ProbeError, ProbeTarget } from '../probe.contract.ts';
import { num, ProbeFailure, resolveHost, round } from '../probe.net.ts';
import { runProbeWithin, type Outcome } from '../probe.run.ts';
import { PING_INTERVAL_S, PingUnavailableError, runPing, type PingOutcome } from './icmp.ping.ts';

export const ICMP_DEFAULT_COUNT = 3;
export const ICMP_DEFAULT_MAX_LOSS_PERCENT = 50;

const HOST_NAME = /^[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?)*\.?$/i;

/** A bare host (name or IP, IPv6 with or without brackets); no port, no scheme. */
function hostOf(target: string): string {
  const text = target.trim();
  const host = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  if (isIP(host) === 0 && !HOST_NAME.test(host))
    throw new ProbeFailure('invalid_target', `Target must be a host name or IP address, got ${JSON.stringify(target)}`);
  return host;
}

export interface IcmpProbeOptions {
  /** The ping program (looked up in /usr/bin:/bin:/usr/sbin:/sbin): `ping` unless told (tests name a missing one). */
  command?: string;
}

export function createIcmpProbe(options: IcmpProbeOptions = {}): Probe {
  const command = options.command ?? 'ping';
  return function icmpProbe(target: ProbeTarget, ctx: ProbeContext): Promise<Observation> {
    const cfg = target.config;
    const timeoutMs = num(cfg.timeout_ms, 10_000);
    const count = Math.min(Math.floor(num(cfg.count, ICMP_DEFAULT_COUNT)), 100);
    const maxLoss = typeof cfg.max_loss_percent === 'number' ? cfg.max_loss_percent : ICMP_DEFAULT_MAX_LOSS_PERCENT;
    const assertions = Array.isArray(cfg.assertions) ? (cfg.assertions as Array<Record<string, unknown>>) : [];
    let child: ChildProcess | undefined;
    const timeoutMessage = `ping did not finish within ${timeoutMs} ms`;
    return runProbeWithin(ctx, { timeoutMs, timeoutMessage }, async (run) => {
      try {
        const host = hostOf(target.target);
        const vetted = await run.race(resolveHost(host, ctx, run.timings));
        // ping sends for (count-1) intervals, then waits for the last replies; it must be done before the timeout,
        // with room for starting a process on a loaded machine (else a lost echo would read as a timeout).
        const left = timeoutMs - run.elapsed() - (count - 1) * PING_INTERVAL_S * 1000;
        const margin = Math.max(400, timeoutMs * 0.1);
        const waitSeconds = Math.max(0.1, Math.min(10, (left - margin) / 1000));
        let ping: PingOutcome;
        try {
          ping = await run.race(
            runPing(
              { address: vetted.address, family: vetted.family, count, waitSeconds },
              (c) => {
                child = c;
                run.onAbort(() => c.kill('SIGKILL'));
              },
              command,
            ),
          );
        } catch (err) {
          if (err instanceof PingUnavailableError) throw new ProbeFailure('protocol_error', err.message);
          throw err;
        }
        return run.observation(judgePing(ping, { count, maxLoss, assertions, address: vetted.address }, run.elapsed()));
      } finally {
        if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      }
    });
  };
}

export interface Judging {
  count: number;
  maxLoss: number;
  assertions: Array<Record<string, unknown>>;
  address: string;
}

/** The outcome of one ping run (exported for tests of the cases a machine cannot produce on demand). */
export function judgePing(ping: PingOutcome, j: Judging, elapsedMs: number): Outcome {
  const transmitted = Math.max(ping.transmitted, 0);
  const received = ping.rtts.length;
  // Loss against what was asked for: ping stopped early (no route) has lost the requests it never sent.
  const loss_percent = round(((j.count - Math.min(received, j.count)) / j.count) * 100);
  const min = received ? Math.min(...ping.rtts) : null;
  const max = received ? Math.max(...ping.rtts) : null;
  // To ping's own precision (µs): rounded to 0.01 ms, an average of 0.048 ms replies read 0.05, above their maximum.
  const avg = received ? Math.round((ping.rtts.reduce((a, b) => a + b, 0) / received) * 1000) / 1000 : null;
  const details: Record<string, unknown> = {
    address: j.address,
    packets_sent: transmitted,
    packets_received: received,
    loss_percent,
    rtt_min_ms: min,
    rtt_avg_ms: avg,
    rtt_max_ms: max,
    rtts_ms: ping.rtts,
    elapsed_ms: elapsedMs,
    ...(ping.errors.length ? { icmp_errors: ping.errors } : {}),
  };
  let error: ProbeError | null = null;
  if (received === 0 && /operation not permitted|permission denied/i.test(ping.stderr)) {
    // The server's setup, not the target: ping may open neither a datagram nor a raw ICMP socket.
    error = {
      code: 'protocol_error',
      message:
        `ping may not open an ICMP socket here (${ping.stderr.replace(/^ping: /, '')}): give the ping binary ` +
        'cap_net_raw, or widen net.ipv4.ping_group_range to the service group',
    };
  } else if (received === 0) {
    const why = ping.errors[0] ?? ping.stderr.replace(/^ping: /, '');
    error = {
      code: ping.errors.length || ping.exitCode === 2 ? 'connect_refused' : 'packet_loss',
      message: why ? `no echo reply from ${j.address}: ${why}` : `no echo reply from ${j.address} (100% loss)`,
    };
  } else if (loss_percent > j.maxLoss) {
    error = {
      code: 'packet_loss',
      message: `${loss_percent}% of ${j.count} echo requests lost (at most ${j.maxLoss}% allowed)`,
    };
  }
  const evaluated =
    j.assertions.length && avg !== null
      ? evaluateAssertions(j.assertions, { status: 0, headers: {}, body: undefined, duration_ms: avg })
      : [];
  if (!error) {
    const failed = evaluated.find((a) => !a.passed);
    if (failed)
      error = {
        code: 'assertion_failed',
        message: `average round trip ${avg} ms is not below ${String(failed.less_than)} ms`,
      };
  }
  return { error, details, assertions: evaluated, duration_ms: avg ?? elapsedMs };
}
