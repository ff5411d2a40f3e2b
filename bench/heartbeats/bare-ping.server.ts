/**
 * The ceiling the heartbeat bench compares Tocsin with: a bare Fastify server on the same machine, taking the same
 * pings (`POST /api/v1/heartbeats/{token}`, any body read as bytes) and answering a JSON acknowledgement of the same
 * shape, storing nothing. Prints `{"port": n}` on its first line of output; stops on SIGTERM.
 */
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.removeAllContentTypeParsers();
app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
let n = 0;
app.post<{ Params: { token: string } }>('/api/v1/heartbeats/:token', async (request) => ({
  status: 'ok',
  monitor_id: request.params.token,
  received_at: new Date().toISOString(),
  signal: 'success',
  ping_id: `png_${++n}`,
  duration_ms: null,
  truncated: false,
}));
await app.listen({ port: 0, host: '127.0.0.1' });
console.log(JSON.stringify({ port: (app.server.address() as { port: number }).port }));
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
