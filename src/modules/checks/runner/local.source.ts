import type { CheckEngine } from '../engine/check.engine.ts';
import type { CheckResult, ClaimedCheck, WorkSource } from '../engine/check.types.ts';

/** The in-process runner's source: claims straight from the schedule and applies results in this process. */
export class LocalWorkSource implements WorkSource {
  private readonly engine: CheckEngine;
  private readonly owner: string;
  private readonly regions: readonly string[];
  constructor(engine: CheckEngine, owner: string, regions: readonly string[]) {
    this.engine = engine;
    this.owner = owner;
    this.regions = regions;
  }
  claim(max: number, _waitMs: number, lookaheadMs = 0): Promise<ClaimedCheck[]> {
    return this.engine.claim(this.owner, this.regions, Math.min(max, 500), lookaheadMs);
  }
  nextDueAt(): Promise<number | null> {
    return this.engine.nextDueAt(this.regions);
  }
  async submit(results: CheckResult[]): Promise<number> {
    await this.engine.applyResults(this.owner, results);
    return 0;
  }
}
