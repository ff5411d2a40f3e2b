import { createHash } from 'node:crypto';
import type { Clock } from '../../../platform/clock.ts';
import type { Database } from '../../../platform/db/index.ts';
import { validationFailed } from '../../../platform/errors.ts';
import { newId, randomToken } from '../../../platform/ids.ts';
import { RunnersRepository, type Runner } from './runners.repository.ts';

/** A runner that sent no heartbeat for this long is not live; its region shows "no data" unless served locally. */
export const RUNNER_LIVE_MS = 60_000;

export function hashRunnerToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export interface RegionLiveness {
  region_code: string;
  served_locally: boolean;
  live_runners: number;
  /** "live" when served locally or by a runner seen within 60 s; otherwise checks are not run and results show "no data". */
  state: 'live' | 'no_data';
}

/** Runner tokens (`trn_…`, stored as SHA-256 only) and runner liveness per region. */
export class RunnersService {
  private readonly database: Database;
  private readonly clock: Clock;
  private readonly regions: readonly string[];
  private readonly localRegions: readonly string[];
  constructor(deps: { database: Database; clock: Clock; regions: readonly string[]; localRegions: readonly string[] }) {
    this.database = deps.database;
    this.clock = deps.clock;
    this.regions = deps.regions;
    this.localRegions = deps.localRegions;
  }

  /** Issues a token for a runner of `region`; the token is returned once. */
  async createToken(regionCode: string, name?: string): Promise<{ runner: Runner; token: string }> {
    if (!this.regions.includes(regionCode)) {
      throw validationFailed([
        { field: 'region', issue: `must be one of the configured regions: ${this.regions.join(', ')}` },
      ]);
    }
    const now = this.clock.now();
    const token = `trn_${randomToken(24)}`;
    const id = newId('run', now);
    const row = {
      id,
      region_code: regionCode,
      name: name ?? `runner ${regionCode}`,
      token_hash: hashRunnerToken(token),
      created_at: now,
      last_seen_at: null,
      revoked_at: null,
    };
    await new RunnersRepository(this.database).insert(row);
    return { runner: { id, regionCode, name: row.name, createdAt: now, lastSeenAt: null, revokedAt: null }, token };
  }

  /** The runner a token belongs to (not revoked), marked as seen now; null for an unknown token. */
  async authenticate(token: string): Promise<Runner | null> {
    if (!token.startsWith('trn_')) return null;
    const repo = new RunnersRepository(this.database);
    const runner = await repo.findByTokenHash(hashRunnerToken(token));
    if (!runner) return null;
    const now = this.clock.now();
    // Writing last_seen_at on every request would be one write per long-poll; 5 s granularity is enough.
    if (runner.lastSeenAt === null || now - runner.lastSeenAt > 5_000) await repo.touch(runner.id, now);
    return { ...runner, lastSeenAt: now };
  }

  list(): Promise<Runner[]> {
    return new RunnersRepository(this.database).list();
  }

  revoke(id: string): Promise<boolean> {
    return new RunnersRepository(this.database).revoke(id, this.clock.now());
  }

  async regionLiveness(): Promise<RegionLiveness[]> {
    const now = this.clock.now();
    const runners = (await this.list()).filter(
      (r) => r.revokedAt === null && r.lastSeenAt !== null && now - r.lastSeenAt <= RUNNER_LIVE_MS,
    );
    return this.regions.map((code) => {
      const live = runners.filter((r) => r.regionCode === code).length;
      const local = this.localRegions.includes(code);
      return {
        region_code: code,
        served_locally: local,
        live_runners: live,
        state: local || live > 0 ? 'live' : 'no_data',
      };
    });
  }
}
