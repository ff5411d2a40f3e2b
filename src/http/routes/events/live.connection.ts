import type { Writable } from 'node:stream';
import { canSeeEnvironment, type Actor } from '../../../modules/auth/index.ts';
import type { LiveEvent, LiveSubscriber } from '../../../modules/live/index.ts';

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
 * being sent what it missed are held (within the same bound) and sent after.
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
  private held: string[] = [];
  private heldBytes = 0;
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
      const text = formatEvent(e.id, e.type, e.data);
      if (this.holding) this.hold(text);
      else this.send(text);
    }
  }

  heartbeat(): void {
    if (!this.holding) this.send(': heartbeat\n\n');
  }

  /**
   * Starts the stream: what the client missed (after Last-Event-ID), a `resync` when that was more than is kept,
   * `ready` with the head's id, then the live events that arrived meanwhile and everything after.
   */
  start(missed: readonly LiveEvent[], complete: boolean, headId: string): void {
    for (const e of missed) if (visibleTo(this.actor, e)) this.send(formatEvent(e.id, e.type, e.data));
    if (!complete) this.send(formatEvent(headId, 'resync', { reason: 'too_many_missed_events' }));
    this.send(formatEvent(headId, 'ready', {}));
    this.release();
  }

  private release(): void {
    this.holding = false;
    const held = this.held;
    this.held = [];
    this.heldBytes = 0;
    for (const text of held) this.send(text);
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

  private hold(text: string): void {
    this.held.push(text);
    this.heldBytes += Buffer.byteLength(text);
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
