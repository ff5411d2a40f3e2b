import type { FastifyInstance } from 'fastify';
import { PING_BODY_KEPT_BYTES } from '../../../modules/checks/index.ts';

/** A ping's body as read: its first PING_BODY_KEPT_BYTES and the whole body's size (the rest is read and dropped). */
export interface PingBody {
  kept: Buffer;
  bytes: number;
}

/**
 * Reads any body of any content type for the ping routes of `scope`: a job's output is kept, never refused for its
 * size or type (a body past the kept size is read to its end and dropped, so the ping still counts).
 */
export function installPingBodyParser(scope: FastifyInstance): void {
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser('*', (_request, payload, done) => {
    const chunks: Buffer[] = [];
    let kept = 0;
    let bytes = 0;
    payload.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (kept < PING_BODY_KEPT_BYTES) {
        const part = chunk.subarray(0, PING_BODY_KEPT_BYTES - kept);
        chunks.push(part);
        kept += part.length;
      }
    });
    payload.on('end', () => done(null, { kept: Buffer.concat(chunks), bytes } satisfies PingBody));
    payload.on('error', (err: Error) => done(err, undefined));
  });
}
