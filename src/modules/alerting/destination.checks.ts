import type { ErrorDetail } from '../../platform/errors.ts';
import type { Actor } from '../auth/index.ts';
import type { DestinationProvider, DestinationType } from './destinations/index.ts';
import type { DestinationViews } from './destination.view.ts';
import { URL_TYPES, privateTargetIssue, type HostResolver } from './network.guard.ts';

export interface DestinationChecksDeps {
  registry: ReadonlyMap<DestinationType, DestinationProvider>;
  views: DestinationViews;
  allowPrivateTargets: boolean;
  resolveHost?: HostResolver;
}

/**
 * The rules of a destination body that a schema cannot say (the route schema has checked its shape): each adds
 * `details` naming the field, so one 422 lists every problem.
 */
export class DestinationChecks {
  private readonly deps: DestinationChecksDeps;
  constructor(deps: DestinationChecksDeps) {
    this.deps = deps;
  }

  name(value: string, details: ErrorDetail[]): string {
    const trimmed = value.trim();
    if (trimmed === '' || value.length > 200 || [...value].some((c) => c.charCodeAt(0) < 0x20)) {
      details.push({ field: 'name', issue: 'must be a non-empty string of at most 200 characters' });
    }
    return trimmed;
  }

  payloadFormat(
    type: DestinationType,
    value: 'standard' | 'legacy' | null | undefined,
    details: ErrorDetail[],
  ): 'standard' | 'legacy' | null {
    if (value === undefined || value === null) return null;
    if (type !== 'generic_webhook') {
      details.push({ field: 'payload_format', issue: 'applies to generic_webhook destinations only' });
      return null;
    }
    return value;
  }

  /** A grouping window (DECISIONS §17) only where messages can be grouped: pager types keep one alert per monitor. */
  groupWindow(type: DestinationType, value: number | undefined, details: ErrorDetail[]): number | undefined {
    if (value === undefined || value === 0) return value;
    if (!this.deps.registry.get(type)?.renderGroup) {
      details.push({
        field: 'group_window_seconds',
        issue: `${type} keeps one alert per monitor and cannot group; only 0 is allowed`,
      });
      return 0;
    }
    return value;
  }

  /** The provider's rules for a whole config (after a PATCH merge too), then the private-network policy for URLs. */
  async config(type: DestinationType, config: unknown, details: ErrorDetail[]): Promise<void> {
    const provider = this.deps.registry.get(type);
    if (!provider) throw new Error(`no provider for ${type}`);
    const parsed = provider.parseConfig(config);
    if (!parsed.ok) {
      details.push(...parsed.issues);
      return;
    }
    // Every URL type's schema requires `url` as a string: the narrowing only tells the compiler so.
    const url = parsed.config.url;
    if (!URL_TYPES.includes(type) || typeof url !== 'string') return;
    const issue = await privateTargetIssue(url, this.deps.allowPrivateTargets, this.deps.resolveHost);
    if (issue) details.push({ field: 'config.url', issue });
  }

  /** Each id must be a monitor the caller can see (its organization and environments); otherwise 422 on that index. */
  async monitorIds(actor: Actor, ids: readonly string[], details: ErrorDetail[]): Promise<string[]> {
    const visible = await this.deps.views.visibleMonitorIds(actor, ids);
    ids.forEach((id, i) => {
      if (!visible.has(id))
        details.push({
          field: `monitor_ids[${i}]`,
          issue: `monitor ${id} is not a monitor of this organization in your environments`,
        });
    });
    return [...new Set(ids)];
  }
}
