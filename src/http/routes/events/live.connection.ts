import type { Writable } from 'node:stream';
import { canSeeEnvironment, type Actor } from '../../../modules/auth/index.ts';
import {
  coveredBy,
  formatPosition,
  laterPosition,
  parsePosition,
  type LiveEvent,
  type LivePosition,
  type LiveSubscriber,
} from '../../../modules/live/index.ts';

/** One event in the text/event-stream format. */
export function formatEvent(id: string, type: string, data: unknown): string {
  return `id: ${id}\nevent: ${type}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** Whether the actor may see a live event: its organization; for a key, the scope and the monitor's environment. */
export function visibleTo(actor: Actor, event: LiveEvent): boolean {
  if (event.organizationId !== actor.organizationId) return false;
  if (actor.sessionId !== undefined) return true;
  if (!actor.scopes.has(event.scope)) return false;
  if (event.monitorId === null) return true;
  return event.environment !== null && canSeeEnvironment(actor, event.environment);
}

/**
 * One client of the live feed. Writes go straight to the socket while it takes them; when it does not (a slow
 * reader), they wait in a queue of at most `maxQueuedBytes`, and beyond that the client is disconnected instead
 * of being buffered for ever (it reconnects with Last-Event-ID). Events that arrive while the client is still
 * being sent what it missed are held (within the same bound) and sent after. The replay may reach further than the
 * feed's rounds (it reads the stored head after subscribing): live events it already carried are dropped, and the
 * ids of later ones never go below the position the client was given, so ids only grow.
 */
export class LiveConnection implements LiveSubscriber {
  private readonly out: Writable;
  private readonly actor: Actor;
  private readonly maxQueuedBytes: number;
  private readonly onEnd: (reason: 'overflow' | 'closed') => void;
  private queue: string[] = [];
  private queuedBytes = 0;
  private blocked = false;
  private holding = true;
  private held: LiveEvent[] = [];
  private heldBytes = 0;
  /** What the client has been sent up to: the position of `ready` once started. */
  private covered: LivePosition | null = null;
  private ended = false;

  constructor(options: {
    out: Writable;
    actor: Actor;
    maxQueuedBytes: number;
    onEnd: (reason: 'overflow' | 'closed') => void;
  }) {
    this.out = options.out;
    this.actor = options.actor;
    this.maxQueuedBytes = options.maxQueuedBytes;
    this.onEnd = options.onEnd;
  }

  get isEnded(): boolean {
    return this.ended;
  }

  deliver(events: readonly LiveEvent[]): void {
    for (const e of events) {
      if (!visibleTo(this.actor, e)) continue;
      if (this.holding) this.hold(e);
      else this.sendLive(e);
    }
  }

  private sendLive(e: LiveEvent): void {
    const covered = this.covered!;
    if (coveredBy(e, covered)) return;
    const position = parsePosition(e.id);
    const id = position === null ? e.id : formatPosition(laterPosition(position, covered));
    this.send(formatEvent(id, e.type, e.data));
  }

  heartbeat(): void {
    if (!this.holding) this.send(': heartbeat\n\n');
  }

  /**
   * Starts the stream: what the client missed (after Last-Event-ID), a `resync` when that was more than is kept,
   * `ready` with the head's id, then the live events after the head that arrived meanwhile and everything after.
   */
  start(missed: readonly LiveEvent[], complete: boolean, head: LivePosition): void {
    const headId = formatPosition(head);
    for (const e of missed) if (visibleTo(this.actor, e)) this.send(formatEvent(e.id, e.type, e.data));
    if (!complete) this.send(formatEvent(headId, 'resync', { reason: 'too_many_missed_events' }));
    this.send(formatEvent(headId, 'ready', {}));
    this.covered = head;
    this.release();
  }

  private release(): void {
    this.holding = false;
    const held = this.held;
    this.held = [];
    this.heldBytes = 0;
    for (const e of held) this.sendLive(e);
  }

  send(text: string): void {
    if (this.ended) return;
    if (this.blocked) {
      this.queue.push(text);
      this.queuedBytes += Buffer.byteLength(text);
      if (this.queuedBytes > this.maxQueuedBytes) this.end('overflow');
      return;
    }
    if (!this.out.write(text)) {
      this.blocked = true;
      this.out.once('drain', () => this.flush());
    }
  }

  close(): void {
    this.end('closed');
  }

  end(reason: 'overflow' | 'closed'): void {
    if (this.ended) return;
    this.ended = true;
    this.queue = [];
    this.held = [];
    // A slow client is cut off (its socket buffers are dropped too); a closing server ends the stream cleanly.
    if (reason === 'overflow') this.out.destroy();
    else this.out.end();
    this.onEnd(reason);
  }

  private hold(e: LiveEvent): void {
    this.held.push(e);
    this.heldBytes += Buffer.byteLength(JSON.stringify(e.data)) + e.id.length + e.type.length;
    if (this.heldBytes > this.maxQueuedBytes) this.end('overflow');
  }

  private flush(): void {
    this.blocked = false;
    const queue = this.queue;
    this.queue = [];
    this.queuedBytes = 0;
    for (const text of queue) this.send(text);
  }
}
