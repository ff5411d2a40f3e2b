/**
 * Issue 36 item 8's floor: the least any server has to do for the API mix's requests on the same data, to tell how
 * far the goal (the mix at ≥ 0.3 × a bare Fastify `GET /`) is from what the work itself allows. Fastify and
 * better-sqlite3 on a copy of a Tocsin database (the same rows, indexes, text index and its triggers), each request
 * one prepared statement or one transaction of them, the rows answered as stored:
 * - no authentication beyond a key looked up in a Set, no scopes, rate limits, usage, request log or metrics;
 * - no validation beyond what the SQL needs, no records shaped for the API, no audit entry, no report copy, no
 *   schedule or listeners, no idempotency; a write is the monitor's row and its tag rows, committed.
 * `inMemory`: every monitor also held in memory (in id order) and reads and lists answered from there without SQL,
 * each write committed to the database first and then applied to the copy: what even a server that keeps the whole
 * organization in one process's memory would still spend (one process only: another writer would not be seen).
 * Used by api.op-cost.bench.ts (`BENCH_FLOOR=1` or `memory`), served by api.servers.ts `floor`.
 */
import { randomUUID } from 'node:crypto';
import BetterSqlite3 from 'better-sqlite3';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';

type Row = Record<string, unknown>;
interface ListQuery {
  status?: string;
  type?: string;
  environment?: string;
  tag?: string;
  q?: string;
  limit?: string;
}

export function floorServer(file: string, keys: readonly string[], inMemory = false): FastifyInstance {
  const db = new BetterSqlite3(file);
  // As Tocsin opens its database (platform/db/database.ts).
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  const model = db.prepare('select * from monitor where paused = 1 limit 1').get() as Row;
  const org = model.organization_id as string;
  const known = new Set(keys);

  const readOne = db.prepare('select * from monitor where id = ? and organization_id = ?');
  const lists = new Map<string, BetterSqlite3.Statement>();
  const listOf = (query: ListQuery): { statement: BetterSqlite3.Statement; values: unknown[] } => {
    // A tag's rows (index (organization, tag, monitor)) drive the page in id order: the tag's monitors are read, not
    // the organization's (testing each row's tags took 7 ms a page here).
    const tagged = query.tag !== undefined;
    const from = tagged ? 'monitor_tag cross join monitor on monitor.id = monitor_tag.monitor_id' : 'monitor';
    const where = tagged ? ['monitor_tag.organization_id = ? and monitor_tag.tag = ?'] : ['organization_id = ?'];
    const values: unknown[] = tagged ? [org, query.tag] : [org];
    for (const column of ['status', 'type', 'environment'] as const) {
      if (query[column] === undefined) continue;
      where.push(`${column} = ?`);
      values.push(query[column]);
    }
    if (query.q !== undefined) {
      const needle = query.q.toLowerCase();
      where.push(
        'monitor.rowid in (select rowid from monitor_search where monitor_search match ?) and instr(search_text, ?) > 0',
      );
      values.push(`"${needle.replaceAll('"', '""')}"`, needle);
    }
    values.push(Math.min(100, Number(query.limit ?? 20)));
    const order = tagged ? 'monitor_tag.monitor_id' : 'id';
    const text = `select monitor.* from ${from} where ${where.join(' and ')} order by ${order} limit ?`;
    let statement = lists.get(text);
    if (!statement) lists.set(text, (statement = db.prepare(text)));
    return { statement, values };
  };

  const update = db.prepare(
    'update monitor set name = ?, sort_name = ?, search_text = ?, tags = ?, updated_at = ? where id = ? and organization_id = ?',
  );
  const targetOf = db.prepare('select target from monitor where id = ? and organization_id = ?');
  const dropTags = db.prepare('delete from monitor_tag where monitor_id = ?');
  const addTag = db.prepare('insert into monitor_tag (monitor_id, organization_id, tag) values (?, ?, ?)');
  const columns = Object.keys(model);
  const insert = db.prepare(
    `insert into monitor (${columns.join(', ')}) values (${columns.map((c) => `@${c}`).join(', ')})`,
  );
  const patch = db.transaction((id: string, name: string, tags: string[]): Row | undefined => {
    const target = targetOf.get(id, org) as { target: string } | undefined;
    if (!target) return undefined;
    const now = Date.now();
    const text = `${name}\n${target.target}`.toLowerCase();
    update.run(name, name.toLowerCase(), text, JSON.stringify(tags), now, id, org);
    dropTags.run(id);
    for (const tag of tags) addTag.run(id, org, tag);
    return readOne.get(id, org) as Row;
  });
  const create = db.transaction((target: string, tags: string[]): Row => {
    const now = Date.now();
    const id = `mon_${randomUUID().replaceAll('-', '')}`;
    const row = {
      ...model,
      id,
      name: target,
      sort_name: target.toLowerCase(),
      target,
      search_text: `${target}\n${target}`.toLowerCase(),
      tags: JSON.stringify(tags),
      created_at: now,
      updated_at: now,
      status_changed_at: now,
      last_checked_at: null,
    };
    insert.run(row);
    for (const tag of tags) addTag.run(id, org, tag);
    return row;
  });

  const memory = inMemory
    ? new MemoryCopy(db.prepare('select * from monitor where organization_id = ? order by id').all(org) as Row[])
    : null;

  const app = Fastify({ logger: false });
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const key = request.headers.authorization?.slice('Bearer '.length);
    if (key === undefined || !known.has(key)) return reply.code(401).send({ error: { code: 'unauthorized' } });
  });
  app.get<{ Params: { id: string } }>('/api/v1/monitors/:id', async (request, reply) => {
    const row = memory ? memory.byId.get(request.params.id) : readOne.get(request.params.id, org);
    return row ?? reply.code(404).send({ error: { code: 'not_found' } });
  });
  app.get<{ Querystring: ListQuery }>('/api/v1/monitors', async (request) => {
    if (memory) return { data: memory.list(request.query) };
    const { statement, values } = listOf(request.query);
    return { data: statement.all(...values) };
  });
  app.patch<{ Params: { id: string }; Body: { name: string; tags: string[] } }>(
    '/api/v1/monitors/:id',
    async (request, reply) => {
      const row = patch(request.params.id, request.body.name, request.body.tags);
      if (row && memory) memory.put(row);
      return row ?? reply.code(404).send({ error: { code: 'not_found' } });
    },
  );
  app.post<{ Body: { target: string; tags: string[] } }>('/api/v1/monitors', async (request, reply) => {
    const row = create(request.body.target, request.body.tags);
    memory?.put(row);
    return reply.code(201).send(row);
  });
  return app;
}

/** The organization's monitors in memory, in id order (new ids sort last: they are made later), tags parsed once. */
class MemoryCopy {
  readonly byId = new Map<string, Row>();
  private readonly ordered: Array<{ row: Row; tags: Set<string> }> = [];
  private readonly indexOf = new Map<string, number>();
  constructor(rows: Row[]) {
    for (const row of rows) this.put(row);
  }

  put(row: Row): void {
    const id = row.id as string;
    const entry = { row, tags: new Set(JSON.parse(row.tags as string) as string[]) };
    this.byId.set(id, row);
    const at = this.indexOf.get(id);
    if (at !== undefined) this.ordered[at] = entry;
    else this.indexOf.set(id, this.ordered.push(entry) - 1);
  }

  list(query: ListQuery): Row[] {
    const limit = Math.min(100, Number(query.limit ?? 20));
    const needle = query.q?.toLowerCase();
    const page: Row[] = [];
    for (const { row, tags } of this.ordered) {
      if (query.status !== undefined && row.status !== query.status) continue;
      if (query.type !== undefined && row.type !== query.type) continue;
      if (query.environment !== undefined && row.environment !== query.environment) continue;
      if (query.tag !== undefined && !tags.has(query.tag)) continue;
      if (needle !== undefined && !(row.search_text as string).includes(needle)) continue;
      if (page.push(row) === limit) break;
    }
    return page;
  }
}
