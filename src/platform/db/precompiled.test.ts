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
});
