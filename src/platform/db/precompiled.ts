import { CompiledQuery, SqliteAdapter, type Compilable, type Kysely } from 'kysely';

// A string no caller sends as a value: it stands for a parameter while a query is compiled.
const MARK = '\u0000tocsin-param:';

/** The placeholder for the parameter `name` in a query built for `PrecompiledQueries.run`. */
export function param(name: string): string {
  return MARK + name;
}

interface Shape {
  compiled: CompiledQuery;
  /** Per SQL parameter: the name of the value to bind, or undefined for a constant kept from the build. */
  slots: Array<string | undefined>;
}

/**
 * Only the SQL text and where each parameter's value comes from: no operation tree nor placeholder strings. A shape is
 * kept per row count, and a batch's row counts vary; the compiled query as Kysely returns it (its operation tree, a
 * placeholder string per parameter) was ≈ 80 KB for a 40-row insert, and these shapes were most of what the check
 * engine's heap grew by (13 MB in a minute at 50 checks/s), so every full collection had more to mark.
 */
interface RowShape {
  sql: string;
  /** Per SQL parameter: the row whose value it binds, or -1 for a constant kept from the build. */
  rowOf: Int32Array;
  /** Per SQL parameter: the index in `columns` of the value it binds (unused for a constant). */
  columnOf: Uint16Array;
  /** The constants, by parameter index. */
  constants: ReadonlyArray<readonly [number, unknown]>;
}

/**
 * Queries built and compiled once per shape, then run with each call's values. Kysely otherwise builds its operation
 * tree and compiles it to SQL on every call, about half the cost of a small read on SQLite, and the hot reads (the
 * single monitor read) repeat a few shapes. Only the SQL text is kept, never a result: every run reads the database.
 * One instance per owner (a service), no process-wide state.
 */
export class PrecompiledQueries {
  private readonly shapes = new Map<string, Shape>();
  private readonly rowShapes = new Map<string, RowShape>();

  /**
   * Runs the query of shape `key` with `values`. `build` makes it with `param(name)` for each value; `key` must tell
   * apart everything else that changes the SQL (dialect, list lengths).
   */
  async run<R>(
    db: Kysely<unknown>,
    key: string,
    build: () => Compilable<R>,
    values: Readonly<Record<string, unknown>>,
  ): Promise<R[]> {
    let shape = this.shapes.get(key);
    if (!shape) {
      const compiled = build().compile();
      shape = {
        compiled,
        slots: compiled.parameters.map((p) =>
          typeof p === 'string' && p.startsWith(MARK) ? p.slice(MARK.length) : undefined,
        ),
      };
      // A value the SQL has no place for means the build and the values disagree about the shape: a condition would
      // be silently missing from the statement.
      const unused = Object.keys(values).filter((name) => !shape!.slots.includes(name));
      if (unused.length > 0) throw new Error(`precompiled query ${key}: no place for ${unused.join(', ')}`);
      this.shapes.set(key, shape);
    }
    const { compiled, slots } = shape;
    const parameters = slots.map((name, i) => {
      if (name === undefined) return compiled.parameters[i];
      if (!(name in values)) throw new Error(`precompiled query ${key}: no value for ${name}`);
      return values[name];
    });
    const result = await db.executeQuery<R>({ ...compiled, parameters } as CompiledQuery<R>);
    return result.rows;
  }

  /**
   * A statement over rows (a multi-row insert or upsert, a list of key tuples) built and compiled once per row count:
   * `build` makes it from placeholder rows (each of `columns` a placeholder), and each run binds `rows`' values in
   * their place. The hot multi-row writes of a check batch spent more in Kysely building and compiling their value
   * lists than SQLite spent running them. On SQLite the rows go in power-of-two parts (one statement each, results
   * concatenated in order), so a statement must not need all rows at once (no ORDER BY or LIMIT across them).
   */
  async runRows<R, Row extends object>(
    db: Kysely<unknown>,
    key: string,
    columns: ReadonlyArray<keyof Row & string>,
    rows: readonly Row[],
    build: (placeholders: Array<Record<keyof Row & string, string>>) => Compilable<R>,
  ): Promise<R[]> {
    if (!(db.getExecutor().adapter instanceof SqliteAdapter) || isPowerOfTwo(rows.length))
      return this.runRowShape(db, key, columns, rows, build);
    // SQLite: every row count is its own SQL text, so its own prepared statement. At 10,000 monitors a batch has any
    // count up to a few hundred, more texts than the connection's statement cache holds, and preparing took 5–8 % of
    // the process's CPU. In power-of-two parts a key has at most a dozen texts; a few more statements run instead.
    // (PostgreSQL does not keep prepared statements here, and there each part would be a round trip.)
    const out: R[] = [];
    for (let at = 0; at < rows.length;) {
      const size = 2 ** Math.floor(Math.log2(rows.length - at));
      out.push(...(await this.runRowShape(db, key, columns, rows.slice(at, at + size), build)));
      at += size;
    }
    return out;
  }

  private async runRowShape<R, Row extends object>(
    db: Kysely<unknown>,
    key: string,
    columns: ReadonlyArray<keyof Row & string>,
    rows: readonly Row[],
    build: (placeholders: Array<Record<keyof Row & string, string>>) => Compilable<R>,
  ): Promise<R[]> {
    const shapeKey = `${key}#${rows.length}`;
    let shape = this.rowShapes.get(shapeKey);
    if (!shape) {
      shape = compileRowShape(columns, rows.length, build);
      this.rowShapes.set(shapeKey, shape);
    }
    const { rowOf, columnOf, constants } = shape;
    const parameters = new Array<unknown>(rowOf.length);
    for (let i = 0; i < rowOf.length; i++) {
      const row = rowOf[i]!;
      if (row >= 0) parameters[i] = rows[row]![columns[columnOf[i]!]!];
    }
    for (const [i, value] of constants) parameters[i] = value;
    const result = await db.executeQuery<R>(CompiledQuery.raw(shape.sql, parameters) as CompiledQuery<R>);
    return result.rows;
  }
}

/**
 * One row's statement (an insert or upsert every change makes): compiled once by `queries` when given, otherwise built
 * by Kysely for this call. `build` makes it from the row, or from the placeholder row when compiled.
 */
export async function runOneRow<Row extends object>(
  queries: PrecompiledQueries | undefined,
  db: Kysely<unknown>,
  key: string,
  columns: ReadonlyArray<keyof Row & string>,
  row: Row,
  build: (row: Row) => Compilable<unknown>,
): Promise<void> {
  if (!queries) {
    await db.executeQuery(build(row).compile());
    return;
  }
  await queries.runRows<unknown, Row>(db, key, columns, [row], ([placeholders]) =>
    build(placeholders as unknown as Row),
  );
}

function isPowerOfTwo(n: number): boolean {
  return n > 0 && (n & (n - 1)) === 0;
}

function compileRowShape<R, Row extends object>(
  columns: ReadonlyArray<keyof Row & string>,
  rowCount: number,
  build: (placeholders: Array<Record<keyof Row & string, string>>) => Compilable<R>,
): RowShape {
  const placeholders = Array.from(
    { length: rowCount },
    (_, i) =>
      Object.fromEntries(columns.map((c, j) => [c, param(`${i}\u0000${j}`)])) as Record<keyof Row & string, string>,
  );
  const compiled = build(placeholders).compile();
  const count = compiled.parameters.length;
  const rowOf = new Int32Array(count);
  const columnOf = new Uint16Array(count);
  const constants: Array<readonly [number, unknown]> = [];
  compiled.parameters.forEach((p, i) => {
    if (typeof p === 'string' && p.startsWith(MARK)) {
      const [row, column] = p.slice(MARK.length).split('\u0000');
      rowOf[i] = Number(row);
      columnOf[i] = Number(column);
    } else {
      rowOf[i] = -1;
      constants.push([i, p]);
    }
  });
  return { sql: compiled.sql, rowOf, columnOf, constants };
}
