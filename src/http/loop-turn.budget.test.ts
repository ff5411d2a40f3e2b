import { createServer, type IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { installLoopTurnBudget, LoopTurnBudget, wasShed } from './loop-turn.budget.ts';

/** Waits for the check phase of this loop turn (or the next, from a check phase): the budget's turns. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('LoopTurnBudget', () => {
  /** Requests that each take 4 ms of a fake clock: a 10 ms budget starts three per turn (0, 4, 8 ms). */
  const setup = (maxQueued = 100) => {
    let now = 0;
    const budget = new LoopTurnBudget({ budgetMs: 10, maxQueued, now: () => now });
    const started: number[] = [];
    const refused: number[] = [];
    const request = (n: number) =>
      budget.admit(
        () => {
          started.push(n);
          now += 4;
        },
        () => refused.push(n),
      );
    return { budget, started, refused, request };
  };

  it('starts requests while the turn is within its budget, then one budget of them per later turn, in arrival order', async () => {
    const { budget, started, request } = setup();
    for (let n = 1; n <= 8; n++) request(n);
    expect(started).toEqual([1, 2, 3]);
    expect(budget.waiting).toBe(5);
    await nextTurn();
    expect(started).toEqual([1, 2, 3, 4, 5, 6]);
    // A request arriving while others wait queues behind them even though this turn's budget is fresh.
    request(9);
    await nextTurn();
    expect(started).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(budget.waiting).toBe(0);
  });

  it('refuses a request when maxQueued already wait, and serves the waiting ones', async () => {
    const { budget, started, refused, request } = setup(2);
    for (let n = 1; n <= 6; n++) request(n);
    expect(started).toEqual([1, 2, 3]);
    expect(refused).toEqual([6]);
    expect(budget.refused).toBe(1);
    await nextTurn();
    expect(started).toEqual([1, 2, 3, 4, 5]);
  });

  it('in front of a server: every request reaches the handler, a refused one marked shed', async () => {
    let now = 0;
    const seen: Array<{ url: string; shed: boolean }> = [];
    const server = createServer((req: IncomingMessage, res) => {
      seen.push({ url: req.url!, shed: wasShed(req) });
      now += 100; // each request overruns the budget: the next one waits for a later turn
      res.end(wasShed(req) ? 'shed' : 'ok');
    });
    installLoopTurnBudget(server, new LoopTurnBudget({ budgetMs: 10, maxQueued: 0, now: () => now }));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as { port: number };
      const bodies = await Promise.all(
        ['/a', '/b', '/c'].map(async (path) => (await fetch(`http://127.0.0.1:${port}${path}`)).text()),
      );
      expect(bodies.filter((b) => b === 'ok').length).toBeGreaterThanOrEqual(1);
      expect(seen).toHaveLength(3);
      expect(seen.filter((s) => s.shed).length).toBe(bodies.filter((b) => b === 'shed').length);
    } finally {
      server.close();
    }
  });
});
