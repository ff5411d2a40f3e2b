import type { ChildProcess } from 'node:child_process';

/** Waits for a started `tocsin serve` to answer /readyz (up to a minute); throws when it exits first. */
export async function waitUntilReady(child: ChildProcess, origin: string): Promise<void> {
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error('tocsin serve exited');
    try {
      if ((await fetch(`${origin}/readyz`)).ok) return;
    } catch {
      // not listening yet
    }
    if (i > 600) throw new Error('tocsin serve not ready');
    await new Promise((r) => setTimeout(r, 100));
  }
}
