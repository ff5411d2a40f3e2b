import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/support/databases.ts';
import { createLogger } from '../logger.ts';
import { ManualTimers } from '../timers.ts';
import { createChangeSignals } from './change.signals.ts';

describe('SQLite change signals on injected timers', () => {
  let db: TestDatabase | undefined;
  afterAll(async () => db?.drop());

  /** Lets the watch's read of data_version (a promise) settle after its timer fired. */
  const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

  it("hears another handle's commit at its next look (every second), once, and looks no more once stopped", async () => {
    db = await createTestDatabase('sqlite');
    const timers = new ManualTimers();
    const signals = createChangeSignals(db.database, null, createLogger({ level: 'silent', pretty: false }), timers);
    let heard = 0;
    signals.on('monitors', () => (heard += 1));
    await signals.start();
    expect(timers.size).toBe(1);

    timers.advance(1_000);
    await settle();
    expect(heard).toBe(0); // nothing changed

    const other = db.reopen();
    await sql`create table probe_change (id integer)`.execute(other.tables<Record<string, never>>());
    expect(heard).toBe(0); // not before the next look
    timers.advance(999);
    await settle();
    expect(heard).toBe(0);
    timers.advance(1);
    await settle();
    expect(heard).toBe(1);
    timers.advance(1_000);
    await settle();
    expect(heard).toBe(1); // the same change is heard once

    await signals.stop();
    heard = 0;
    await sql`drop table probe_change`.execute(other.tables<Record<string, never>>());
    expect(timers.size).toBe(0);
    timers.advance(5_000);
    await settle();
    expect(heard).toBe(0);
    await other.close();
  });
});
