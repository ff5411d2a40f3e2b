import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from './database.ts';
import { PrecompiledQueries, param } from './precompiled.ts';

interface T {
  item: { id: string; kind: string; n: number };
}

describe('PrecompiledQueries', () => {
  let db: Database;
  beforeAll(async () => {
    db = openDatabase({ url: null, sqlitePath: ':memory:' });
    await db
      .tables<T>()
      .schema.createTable('item')
      .addColumn('id', 'text')
      .addColumn('kind', 'text')
      .addColumn('n', 'integer')
      .execute();
    await db
      .tables<T>()
      .insertInto('item')
      .values([
        { id: 'a', kind: 'x', n: 1 },
        { id: 'b', kind: 'y', n: 2 },
        { id: 'c', kind: 'x', n: 3 },
      ])
      .execute();
  });
  afterAll(() => db.close());

  it('compiles a shape once and binds each run its own values, constants kept', async () => {
    const queries = new PrecompiledQueries();
    let builds = 0;
    const build = () => {
      builds++;
      return db
        .tables<T>()
        .selectFrom('item')
        .select(['id'])
        .where('kind', '=', param('kind'))
        .where('n', '>', 1)
        .orderBy('id');
    };
    const run = (kind: string) => queries.run(db.tables<unknown>(), 'items', build, { kind });
    expect(await run('x')).toEqual([{ id: 'c' }]);
    expect(await run('y')).toEqual([{ id: 'b' }]);
    expect(await run('z')).toEqual([]);
    expect(builds).toBe(1);
  });

  it('refuses to run without a value for a parameter', async () => {
    const queries = new PrecompiledQueries();
    const build = () => db.tables<T>().selectFrom('item').selectAll().where('id', '=', param('id'));
    await expect(queries.run(db.tables<unknown>(), 'one', build, {})).rejects.toThrow('no value for id');
  });

  it('refuses a value the statement has no place for (the build left out a condition the values name)', async () => {
    const queries = new PrecompiledQueries();
    const build = () => db.tables<T>().selectFrom('item').selectAll().where('id', '=', param('id'));
    await expect(queries.run(db.tables<unknown>(), 'two', build, { id: 'a', kind: 'x' })).rejects.toThrow(
      'no place for kind',
    );
  });

  it('runs a statement over rows compiled once per row count, each row bound in its place', async () => {
    const queries = new PrecompiledQueries();
    const builds: number[] = [];
    const insert = (rows: Array<{ id: string; n: number }>) =>
      queries.runRows(db.tables<unknown>(), 'insert', ['id', 'n'], rows, (placeholders) => {
        builds.push(placeholders.length);
        // `kind` is a constant of the statement, kept from the build.
        return db
          .tables<T>()
          .insertInto('item')
          .values(placeholders.map((p) => ({ id: p.id, n: p.n as never as number, kind: 'rows' })));
      });
    await insert([{ id: 'r1', n: 10 }]);
    await insert([
      { id: 'r2', n: 20 },
      { id: 'r3', n: 30 },
    ]);
    await insert([{ id: 'r4', n: 40 }]);
    expect(builds).toEqual([1, 2]);
    const tuples = (keys: Array<{ id: string; n: number }>) =>
      queries.runRows<{ id: string }, { id: string; n: number }>(
        db.tables<unknown>(),
        'select',
        ['id', 'n'],
        keys,
        (placeholders) =>
          db
            .tables<T>()
            .selectFrom('item')
            .select('id')
            .where((eb) =>
              eb(
                eb.refTuple('id', 'n'),
                'in',
                placeholders.map((p) => eb.tuple(p.id, p.n as never as number)),
              ),
            )
            .where('kind', '=', 'rows')
            .orderBy('id'),
      );
    expect(
      await tuples([
        { id: 'r4', n: 40 },
        { id: 'r2', n: 20 },
        { id: 'r3', n: 99 },
      ]),
    ).toEqual([{ id: 'r2' }, { id: 'r4' }]);
    expect(
      await tuples([
        { id: 'r1', n: 10 },
        { id: 'r3', n: 30 },
        { id: 'r9', n: 1 },
      ]),
    ).toEqual([{ id: 'r1' }, { id: 'r3' }]);
  });

  it('on SQLite runs any row count as power-of-two parts: a dozen statement texts for every count up to 300', async () => {
    const queries = new PrecompiledQueries();
    const built = new Set<number>();
    const texts = new Set<string>();
    const insert = (rows: Array<{ id: string; n: number }>) =>
      queries.runRows(db.tables<unknown>(), 'many', ['id', 'n'], rows, (placeholders) => {
        built.add(placeholders.length);
        const q = db
          .tables<T>()
          .insertInto('item')
          .values(placeholders.map((p) => ({ id: p.id, n: p.n as never as number, kind: 'many' })))
          .returning(['id', 'n']);
        texts.add(q.compile().sql);
        return q;
      });
    let next = 0;
    for (let count = 1; count <= 300; count++) {
      const rows = Array.from({ length: count }, () => ({ id: `m${next}`, n: next++ }));
      // Every row inserted once, and what the parts return comes back in the rows' order.
      expect(await insert(rows)).toEqual(rows);
    }
    expect([...built].sort((a, b) => a - b)).toEqual([1, 2, 4, 8, 16, 32, 64, 128, 256]);
    expect(texts.size).toBe(9);
    const stored = await db
      .tables<T>()
      .selectFrom('item')
      .select((eb) => eb.fn.countAll<number>().as('c'))
      .where('kind', '=', 'many')
      .executeTakeFirstOrThrow();
    expect(Number(stored.c)).toBe(next);
  });
});
