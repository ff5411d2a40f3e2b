import { request, type ClientRequest, type IncomingMessage } from 'node:http';

export interface SseMessage {
  id: string | undefined;
  event: string;
  data: unknown;
}

/** A real EventSource-like client over HTTP: parses the stream as it arrives; `next` waits for a matching event. */
export class SseClient {
  readonly messages: SseMessage[] = [];
  readonly comments: string[] = [];
  status = 0;
  headers: IncomingMessage['headers'] = {};
  ended = false;
  private buffer = '';
  private waiters: Array<() => void> = [];
  private req: ClientRequest | null = null;
  private res: IncomingMessage | null = null;

  static open(url: string, headers: Record<string, string>): Promise<SseClient> {
    const client = new SseClient();
    return new Promise((resolve, reject) => {
      client.req = request(url, { headers: { accept: 'text/event-stream', ...headers } }, (res) => {
        client.res = res;
        client.status = res.statusCode ?? 0;
        client.headers = res.headers;
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => client.feed(chunk));
        res.on('end', () => client.finish());
        res.on('close', () => client.finish());
        resolve(client);
      });
      client.req.on('error', (err) => {
        if (client.status === 0) reject(err);
        else client.finish();
      });
      client.req.end();
    });
  }

  /** The last id received (what a browser sends as Last-Event-ID when it reconnects). */
  get lastId(): string | undefined {
    return this.messages.filter((m) => m.id !== undefined).at(-1)?.id;
  }

  /** Waits for an event matching `match` (after the first `skip` messages), up to `timeoutMs`. */
  async next(match: (m: SseMessage) => boolean, timeoutMs = 10_000): Promise<SseMessage> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.messages.find(match);
      if (found) return found;
      if (this.ended) throw new Error(`stream ended without the event; got ${JSON.stringify(this.messages)}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no such event within ${timeoutMs} ms; got ${JSON.stringify(this.messages)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  async waitForEnd(timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!this.ended) {
      if (Date.now() > deadline) throw new Error('the stream did not end');
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.max(0, deadline - Date.now()));
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Stops reading without closing: the server's writes pile up (a slow client). */
  pause(): void {
    this.res?.pause();
  }

  close(): void {
    this.req?.destroy();
    this.finish();
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }

  private finish(): void {
    this.ended = true;
    this.wake();
  }

  private feed(chunk: string): void {
    this.buffer += chunk;
    let cut: number;
    while ((cut = this.buffer.indexOf('\n\n')) >= 0) {
      const block = this.buffer.slice(0, cut);
      this.buffer = this.buffer.slice(cut + 2);
      let id: string | undefined;
      let event = 'message';
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) this.comments.push(line.slice(1).trim());
        else if (line.startsWith('id: ')) id = line.slice(4);
        else if (line.startsWith('event: ')) event = line.slice(7);
        else if (line.startsWith('data: ')) data.push(line.slice(6));
      }
      if (data.length > 0) this.messages.push({ id, event, data: JSON.parse(data.join('\n')) as unknown });
    }
    this.wake();
  }
}
