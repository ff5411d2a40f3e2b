/**
 * A second process for multi-process tests: the real app on the database named by the environment. It prints
 * `ready`, reads one JSON line of requests from stdin, sends them all at once through the app, and prints the
 * status codes as one JSON line (so two such processes race each other on the same database).
 */
import { createInterface } from 'node:readline';
import { loadConfig } from '../../src/config/index.ts';
import { createTocsin } from '../../src/main.ts';
import { createLogger } from '../../src/platform/logger.ts';

interface ChildRequest {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  url: string;
  body?: unknown;
}

const tocsin = await createTocsin(loadConfig({ env: process.env, isTty: false }), {
  logger: createLogger({ level: 'error', pretty: false }),
  background: false,
  migrate: false,
});
process.stdout.write('ready\n');
const lines = createInterface({ input: process.stdin });
const [line] = await lines[Symbol.asyncIterator]()
  .next()
  .then((r) => [r.value as string]);
lines.close();
const requests = JSON.parse(line!) as ChildRequest[];
const statuses = await Promise.all(
  requests.map(async (r) => {
    const res = await tocsin.app.inject({
      method: r.method,
      url: r.url,
      headers: {
        authorization: `Bearer ${process.env.CHILD_API_KEY}`,
        ...(r.body !== undefined && { 'content-type': 'application/json' }),
      },
      ...(r.body !== undefined && { payload: JSON.stringify(r.body) }),
    });
    return res.statusCode;
  }),
);
process.stdout.write(`${JSON.stringify(statuses)}\n`);
await tocsin.close();
