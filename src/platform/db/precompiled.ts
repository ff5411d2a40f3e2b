import type { CompiledQuery, Compilable, Kysely } from 'kysely';

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
 * Queries built and compiled once per shape, then run with each call's values. Kysely otherwise builds its operation
 * tree and compiles it to SQL on every call, about half the cost of a small read on SQLite, and the hot reads (the
 * single monitor read) repeat a few shapes. Only the SQL text is kept, never a result: every run reads the database.
 * One instance per owner (a service), no process-wide state.
 */
export class PrecompiledQueries {
  private readonly shapes = new Map<string, Shape>();

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
}
