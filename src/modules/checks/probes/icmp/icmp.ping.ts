/**
 * The system `ping` (iputils) run for one icmp check, and the reading of what it printed.
 *
 * Node has no ICMP socket, raw or datagram; iputils' ping uses an unprivileged ICMP datagram socket when
 * `net.ipv4.ping_group_range` allows the user, and its file capability (cap_net_raw) otherwise. It is run with a
 * fixed argument list (no shell) against the address the probe already vetted, so ping itself resolves nothing.
 */
import { spawn, type ChildProcess } from 'node:child_process';

/** Seconds between echo requests: the smallest interval iputils allows a user who is not root. */
export const PING_INTERVAL_S = 0.2;

export interface PingRequest {
  address: string;
  family: 4 | 6;
  count: number;
  /** Seconds ping waits for replies after the last request (a real number). */
  waitSeconds: number;
}

export interface PingOutcome {
  /** Round-trip times of the replies, in ms, in arrival order (duplicates left out). */
  rtts: number[];
  transmitted: number;
  received: number;
  /** Lines ping printed for ICMP errors ("From 10.0.0.1 icmp_seq=1 Destination Host Unreachable"). */
  errors: string[];
  exitCode: number | null;
  /** What ping wrote to stderr (e.g. "connect: Network is unreachable"). */
  stderr: string;
}

/** Thrown when the `ping` binary is missing: the message says what to install. */
export class PingUnavailableError extends Error {
  constructor() {
    super('the ping binary is not installed on this server (install iputils-ping); icmp monitors need it');
    this.name = 'PingUnavailableError';
  }
}

export function pingArguments(req: PingRequest): string[] {
  return [
    req.family === 6 ? '-6' : '-4',
    '-n',
    '-c',
    String(req.count),
    '-i',
    String(PING_INTERVAL_S),
    '-W',
    req.waitSeconds.toFixed(1),
    req.address,
  ];
}

/** Runs ping; `onStart` gets the child so an aborted check can kill it. Rejects only when ping cannot start. */
export function runPing(
  req: PingRequest,
  onStart: (child: ChildProcess) => void,
  command = 'ping',
): Promise<PingOutcome> {
  return new Promise<PingOutcome>((resolve, reject) => {
    // LC_ALL=C: the output read below is the untranslated one. A fixed PATH: the system's ping, not whatever a
    // process environment puts first.
    const child = spawn(command, pingArguments(req), {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { PATH: '/usr/bin:/bin:/usr/sbin:/sbin', LC_ALL: 'C' },
    });
    onStart(child);
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      if (stdout.length < 65_536) stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      if (stderr.length < 4096) stderr += chunk;
    });
    child.once('error', (err: NodeJS.ErrnoException) => {
      reject(err.code === 'ENOENT' ? new PingUnavailableError() : err);
    });
    child.once('close', (code) => resolve({ ...parsePingOutput(stdout), exitCode: code, stderr: stderr.trim() }));
  });
}

const REPLY = /^\d+ bytes from .+?: icmp_seq=\d+ .*time[=<]([\d.]+) ms(.*)$/;
const SUMMARY = /^(\d+) packets transmitted, (\d+) received/;
const ICMP_ERROR = /^From \S+ icmp_seq=\d+ (.+)$/;

/** Reads ping's output (LC_ALL=C, -n). */
export function parsePingOutput(text: string): Omit<PingOutcome, 'exitCode' | 'stderr'> {
  const rtts: number[] = [];
  const errors: string[] = [];
  let transmitted = -1;
  let received = -1;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    const reply = REPLY.exec(line);
    if (reply) {
      if (!reply[2]!.includes('DUP!')) rtts.push(Number(reply[1]));
      continue;
    }
    const summary = SUMMARY.exec(line);
    if (summary) {
      transmitted = Number(summary[1]);
      received = Number(summary[2]);
      continue;
    }
    const error = ICMP_ERROR.exec(line);
    if (error && errors.length < 10) errors.push(error[1]!);
  }
  // No summary (ping killed): what was seen is all there is.
  if (received < 0) received = rtts.length;
  if (transmitted < 0) transmitted = Math.max(rtts.length, errors.length);
  return { rtts, transmitted, received, errors };
}
