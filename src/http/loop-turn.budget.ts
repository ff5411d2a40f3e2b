import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { setImmediate } from 'node:timers';

/**
 * The API's share of each event-loop turn. The check engine runs on the same loop as the API: its timers (the claim
 * loop, the result flush) fire once per turn, its probes' sockets are read in the same poll phase as the API's. Node
 * serves every readable socket of a turn before the timers, so under 50 saturating connections a turn carried 50
 * requests (≈ 100 ms of CPU, more on a loaded host) and every check waited that long at each step (measured:
 * event-loop delay p50 70–150 ms, p99 220–840 ms, docs/BENCHMARKS.md). Here a request starts at once only while the
 * turn has used less than `budgetMs`; later ones wait, first come first served, for the next turns, after the timers
 * and the engine's I/O. The work done is the same, only its order changes: throughput is kept, the checks' latency
 * is bounded by about one budget per step. Beyond `maxQueued` waiting requests one is refused (503, Retry-After).
 *
 * Turns are told apart with setImmediate: one queued when a turn's first request starts runs in that turn's check
 * phase and opens a new budget. A waiting request is retried by its own setImmediate (they run one after another,
 * with the microtasks of each drained in between, so the time a started request took is seen by the next).
 */
export class LoopTurnBudget {
  private readonly budgetMs: number;
  private readonly maxQueued: number;
  private readonly now: () => number;
  /** When the current turn's budget opened (`now()`); null: no request started since the last turn's end. */
  private turnStart: number | null = null;
  private readonly queue: Array<() => void> = [];
  /** Requests refused since start (the queue full). */
  refused = 0;

  constructor(options: { budgetMs: number; maxQueued: number; now?: () => number }) {
    this.budgetMs = options.budgetMs;
    this.maxQueued = options.maxQueued;
    this.now = options.now ?? (() => performance.now());
  }

  /** Runs `start` now or in a later turn; `refuse` instead when `maxQueued` requests already wait. */
  admit(start: () => void, refuse: () => void): void {
    if (this.queue.length === 0 && this.budgetLeft()) return start();
    if (this.queue.length >= this.maxQueued) {
      this.refused++;
      return refuse();
    }
    this.queue.push(start);
    setImmediate(this.retry);
  }

  /** Requests waiting for a turn. */
  get waiting(): number {
    return this.queue.length;
  }

  private budgetLeft(): boolean {
    const now = this.now();
    if (this.turnStart === null) {
      this.turnStart = now;
      setImmediate(this.turnEnded);
      return true;
    }
    return now - this.turnStart < this.budgetMs;
  }

  private readonly turnEnded = (): void => {
    this.turnStart = null;
  };

  private readonly retry = (): void => {
    if (this.queue.length === 0) return;
    if (this.budgetLeft()) this.queue.shift()!();
    else setImmediate(this.retry);
  };
}

/** Marks a request refused by the budget: the request-context hook answers it 503 in the envelope. */
const SHED = Symbol('tocsin.shed');

export function wasShed(request: IncomingMessage): boolean {
  return (request as IncomingMessage & { [SHED]?: true })[SHED] === true;
}

/**
 * Puts the budget in front of the server's request handler (Fastify's): a request waits before Fastify sees it, so
 * a waiting one costs its parsed head only. `inject()` (tests) does not pass through here.
 */
export function installLoopTurnBudget(server: Server, budget: LoopTurnBudget): void {
  const handlers = server.listeners('request') as Array<(req: IncomingMessage, res: ServerResponse) => void>;
  server.removeAllListeners('request');
  for (const handler of handlers)
    server.on('request', (req: IncomingMessage, res: ServerResponse) =>
      budget.admit(
        () => handler.call(server, req, res),
        () => {
          (req as IncomingMessage & { [SHED]?: true })[SHED] = true;
          handler.call(server, req, res);
        },
      ),
    );
}
