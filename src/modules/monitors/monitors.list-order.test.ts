import { CompiledQuery, sql, type QueryResult } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDialects, type TestDatabase } from '../../../test/support/databases.ts';
import { sampleMonitor } from '../../../test/support/monitors.ts';
import { ManualClock } from '../../platform/clock.ts';
import { PrecompiledQueries } from '../../platform/db/index.ts';
import { createOrgs } from '../orgs/index.ts';
import { decodeListCursor, encodeListCursor, MONITOR_SORTS, type MonitorSort } from './monitor.list.ts';
import { MonitorsRepository, type ListPlan } from './monitors.repository.ts';
import type { Monitor, MonitorFilter } from './monitor.types.ts';

const T0 = Date.parse('2026-11-22T10:00:00.123Z');
const STATUSES = ['up', 'down', 'pending', 'paused'] as const;
const RANK = { down: 0, pending: 1, up: 3, paused: 4 } as const;

/** The order each sort promises, computed here independently of the SQL. */
function expected(sort: MonitorSort, ms: Monitor[]): string[] {
  const name = (m: Monitor) => m.name.toLowerCase();
  const byBytes = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));
  const cmp: Record<MonitorSort, (a: Monitor, b: Monitor) => number> = {
    id: () => 0,
    name: (a, b) => byBytes(name(a), name(b)),
    type: (a, b) => byBytes(a.type, b.type) || byBytes(name(a), name(b)),
    status: (a, b) =>
      RANK[a.status as keyof typeof RANK] - RANK[b.status as keyof typeof RANK] || byBytes(name(a), name(b)),
    last_checked: (a, b) => (b.lastCheckedAt ?? 0) - (a.lastCheckedAt ?? 0),
  };
  return [...ms].sort((a, b) => cmp[sort](a, b) || (a.id < b.id ? -1 : 1)).map((m) => m.id);
}

for (const dialect of testDialects()) {
  describe(`${dialect}: monitors list order, keyset pages and indexed search (issue 36)`, () => {
    let db: TestDatabase;
    let repo: MonitorsRepository;
    let org: string;
    let all: Monitor[];
    /** The service's path: each list shape compiled once, reused by every later page and test with other values. */
    const queries = new PrecompiledQueries();

    beforeAll(async () => {
      db = await createTestDatabase(dialect);
      repo = new MonitorsRepository(db.database);
      const orgs = createOrgs({
        database: db.database,
        clock: new ManualClock(T0),
        defaultPlan: 'team',
        defaultRegion: 'local',
      });
      org = (await orgs.createOrganization({ name: 'o' })).id;
      // Names with equal keys (case), accents and non-ASCII capitals (lowered alike on both databases), types, statuses
      // and last-check times that tie, so that every key and the id tie-break are exercised across page ends.
      const names = ['beta', 'Beta', 'alpha', 'Élan', 'élan', 'Zeta', 'ÄPFEL', 'äpfel-2', 'gamma', 'Delta'];
      all = [];
      for (let i = 0; i < 40; i++) {
        const status = STATUSES[i % 4]!;
        all.push(
          sampleMonitor(org, T0 + i, {
            name: `${names[i % names.length]!} ${i % 3}`,
            type: i % 3 === 0 ? 'tcp' : 'http',
            target: i % 3 === 0 ? `db-${i}.internal:5432` : `https://svc-${i}.example.com/health`,
            status,
            paused: status === 'paused',
            lastCheckedAt: i % 5 === 0 ? null : T0 + (i % 7) * 1000,
            tags: i % 2 === 0 ? ['blue'] : ['green', 'blue-ish'],
            environment: i % 4 === 1 ? 'staging' : 'production',
          }),
        );
      }
      for (const m of all) await repo.insert(m);
    });
    afterAll(async () => db.drop());

    /** Every page of `sort`, `limit` at a time, each after the cursor of the one before (as the API encodes it). */
    async function walk(
      sort: MonitorSort,
      limit: number,
      filter: MonitorFilter = {},
      plan: ListPlan = 'auto',
    ): Promise<string[]> {
      const seen: string[] = [];
      let cursor: string | undefined;
      for (let pages = 0; pages < 100; pages++) {
        const after = decodeListCursor(sort, cursor);
        const rows = await repo.list({ organizationId: org }, filter, after, limit, sort, undefined, plan);
        expect(await repo.list({ organizationId: org }, filter, after, limit, sort, queries, plan)).toEqual(rows);
        const page = rows.slice(0, limit);
        seen.push(...page.map((m) => m.id));
        if (rows.length <= limit) return seen;
        cursor = encodeListCursor(sort, page[page.length - 1]!);
      }
      throw new Error('no end');
    }

    for (const sort of MONITOR_SORTS) {
      it(`sort=${sort}: pages of 7 join into the whole order, without gaps or repeats`, async () => {
        expect(await walk(sort, 7)).toEqual(expected(sort, all));
        expect(await walk(sort, 100)).toEqual(expected(sort, all));
      });
    }

    it('a list compiled once per shape finds what the list built each time finds, for every filter', async () => {
      const filters: MonitorFilter[] = [
        {},
        { status: 'down' },
        { type: 'tcp', q: 'db-' },
        { tag: 'blue' },
        { tag: 'green', status: 'up' },
        { tag: 'blue-ish', environment: 'staging' },
        { tag: 'green', q: 'svc' },
        { tag: 'nobody' },
        { environment: 'production', q: 'al' },
        { maintenance: { monitorIds: [all[0]!.id, all[5]!.id], tags: ['green'], match: 'inside' } },
        { maintenance: { monitorIds: [all[1]!.id], tags: [], match: 'outside' }, status: 'up' },
        { maintenance: { monitorIds: [], tags: [], match: 'inside' } },
        { maintenance: { monitorIds: all.map((m) => m.id), tags: [], match: 'outside' } },
      ];
      for (const scope of [{ organizationId: org }, { organizationId: org, environments: ['production'] }]) {
        for (const filter of filters) {
          for (const sort of MONITOR_SORTS) {
            const built = await repo.list(scope, filter, undefined, 5, sort);
            expect(await repo.list(scope, filter, undefined, 5, sort, queries)).toEqual(built);
          }
        }
      }
    });

    it('fetching the candidates of the tag or text index and scanning in order give the same pages', async () => {
      const matches = (m: Monitor, f: MonitorFilter) =>
        (f.tag === undefined || m.tags.includes(f.tag)) &&
        (f.q === undefined || `${m.name}\n${m.target}`.toLowerCase().includes(f.q.toLowerCase())) &&
        (f.environment === undefined || m.environment === f.environment) &&
        (f.status === undefined || m.status === f.status) &&
        (f.type === undefined || m.type === f.type);
      const filters: MonitorFilter[] = [
        { tag: 'blue' },
        { tag: 'green' },
        // `blue` is a part of `blue-ish`, not the same tag.
        { tag: 'blue-ish', environment: 'staging' },
        { tag: 'nobody' },
        { tag: 'green', q: 'svc', status: 'up' },
        { q: 'svc-' },
        { q: 'DB-1' },
        { q: 'élan', type: 'http' },
        { q: 'no such text' },
      ];
      for (const filter of filters) {
        for (const sort of MONITOR_SORTS) {
          const want = expected(
            sort,
            all.filter((m) => matches(m, filter)),
          );
          for (const plan of ['scan', 'candidates', 'auto'] as const) {
            expect(await walk(sort, 3, filter, plan), `${JSON.stringify(filter)} ${sort} ${plan}`).toEqual(want);
          }
        }
      }
      // Keys see the same monitors through both plans (their environments are a filter the candidates do not know).
      const scope = { organizationId: org, environments: ['staging'] };
      for (const plan of ['scan', 'candidates'] as const) {
        const page = await repo.list(scope, { tag: 'green' }, undefined, 100, 'name', queries, plan);
        expect(page.map((m) => m.id)).toEqual(
          expected(
            'name',
            all.filter((m) => m.environment === 'staging' && m.tags.includes('green')),
          ),
        );
      }
    });

    it('sorts and pages within a filter', async () => {
      const tcp = all.filter((m) => m.type === 'tcp');
      expect(await walk('status', 3, { type: 'tcp' })).toEqual(expected('status', tcp));
      const found = all.filter((m) => m.name.toLowerCase().includes('élan'));
      expect(found.length).toBeGreaterThan(0);
      expect(await walk('name', 2, { q: 'ÉLAN' })).toEqual(expected('name', found));
    });

    it('finds substrings of name or target, short and long needles, case-insensitively (non-ASCII too)', async () => {
      const q = async (text: string) =>
        (await repo.list({ organizationId: org }, { q: text }, undefined, 100)).map((m) => m.id);
      const naive = (text: string) =>
        all.filter((m) => `${m.name}\n${m.target}`.toLowerCase().includes(text.toLowerCase())).map((m) => m.id);
      for (const text of [
        'a',
        'ä',
        'äp',
        'ÄPF',
        'svc-1',
        'SVC-12.',
        'internal:5432',
        'health',
        '"',
        'é',
        'lan 2',
        'x%y',
      ])
        expect(await q(text), text).toEqual(naive(text));
    });

    it('follows renames and deletions in the search index', async () => {
      const m = all[1]!;
      await repo.update({ ...m, name: 'Renamed Quokka', updatedAt: T0 + 99 });
      expect((await repo.list({ organizationId: org }, { q: 'quokka' }, undefined, 10)).map((x) => x.id)).toEqual([
        m.id,
      ]);
      expect((await repo.list({ organizationId: org }, { q: 'quok' }, undefined, 10, 'name')).map((x) => x.id)).toEqual(
        [m.id],
      );
      await repo.delete({ organizationId: org }, m.id);
      expect(await repo.list({ organizationId: org }, { q: 'quokka' }, undefined, 10)).toEqual([]);
      await repo.insert(m);
    });

    it('counts what matches', async () => {
      expect(await repo.countMatching({ organizationId: org }, {})).toBe(all.length);
      expect(await repo.countMatching({ organizationId: org }, { type: 'tcp', q: 'DB-' })).toBe(
        all.filter((m) => m.type === 'tcp').length,
      );
    });

    it('serves a search of three characters or more from an index', async () => {
      if (dialect === 'sqlite') {
        const plan = await sql<{ detail: string }>`explain query plan select id from monitor where rowid in
          (select rowid from monitor_search where monitor_search match '"svc"')`.execute(db.database.tables<unknown>());
        expect(plan.rows.map((r) => r.detail).join('\n')).toMatch(/VIRTUAL TABLE INDEX/);
      } else {
        const ext = await sql<{
          n: number;
        }>`select count(*)::int as n from pg_extension where extname = 'pg_trgm'`.execute(
          db.database.tables<unknown>(),
        );
        // The local PostgreSQL 15 ships pg_trgm: there the index exists and the planner takes it when scans are off.
        expect(ext.rows[0]!.n).toBe(1);
        const plan = await db.database
          .tables<unknown>()
          .transaction()
          .execute(async (tx) => {
            await sql`set local enable_seqscan = off`.execute(tx);
            return sql<{
              'QUERY PLAN': string;
            }>`explain select id from monitor where search_text like '%svc-1%'`.execute(tx);
          });
        expect(plan.rows.map((r) => r['QUERY PLAN']).join('\n')).toMatch(/monitor_search_trgm_idx/);
      }
    });

    it('reads a tag or a text through its index, and fetches few candidates by id', async () => {
      // Every statement a list sends (the repository's Kysely instance, and so its executor, is the database's).
      const executor = db.database.tables<unknown>().getExecutor();
      const run = executor.executeQuery.bind(executor);
      const sent: CompiledQuery[] = [];
      executor.executeQuery = <R>(compiled: CompiledQuery, queryId: Parameters<typeof run>[1]) => {
        sent.push(compiled);
        return run(compiled, queryId) as Promise<QueryResult<R>>;
      };
      const explained = async (filter: MonitorFilter): Promise<string[]> => {
        sent.length = 0;
        await repo.list({ organizationId: org }, filter, undefined, 5, 'name', queries, 'candidates');
        const statements = [...sent];
        const plans: string[] = [];
        await db.database
          .tables<unknown>()
          .transaction()
          .execute(async (tx) => {
            // PostgreSQL: with scans off the planner shows the index it can use (40 rows are cheaper to scan).
            if (dialect === 'postgres') await sql`set local enable_seqscan = off`.execute(tx);
            for (const s of statements) {
              const explain = dialect === 'sqlite' ? 'explain query plan ' : 'explain ';
              const { rows } = await tx.executeQuery<Record<string, string>>(
                CompiledQuery.raw(explain + s.sql, [...s.parameters]),
              );
              plans.push(rows.map((r) => r.detail ?? r['QUERY PLAN']).join('\n'));
            }
          });
        return plans;
      };
      try {
        const [tagCandidates, tagPage] = await explained({ tag: 'green' });
        expect(tagCandidates).toMatch(/monitor_tag_org_tag_idx/);
        if (dialect === 'sqlite') {
          expect(tagPage).toMatch(/SEARCH monitor USING INDEX sqlite_autoindex_monitor_1 \(id=\?\)/);
          const [textCandidates, textPage] = await explained({ q: 'svc-1' });
          expect(textCandidates).toMatch(/VIRTUAL TABLE INDEX/);
          expect(textPage).toMatch(/SEARCH monitor USING INDEX sqlite_autoindex_monitor_1 \(id=\?\)/);
        } else {
          // The page kept to the candidates' ids: which index PostgreSQL reads them by is its statistics' choice (40
          // rows here; at 10,000 the primary key: bench/api/list-plans.bench.ts).
          expect(tagPage).toMatch(/id = ANY/);
        }
      } finally {
        executor.executeQuery = run;
      }
    });

    it('refuses a cursor of another sort', () => {
      const cursor = encodeListCursor('name', all[0]!);
      expect(() => decodeListCursor('status', cursor)).toThrow(/cursor/);
      expect(() => decodeListCursor('id', cursor)).toThrow(/cursor/);
      expect(decodeListCursor('name', cursor)).toEqual({ keys: [all[0]!.name.toLowerCase()], id: all[0]!.id });
    });
  });
}
