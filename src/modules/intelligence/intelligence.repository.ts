import type { Database } from '../../platform/db/index.ts';
import { fromJson, toJson } from '../../platform/db/index.ts';
import type { IntelligenceEventRow, IntelligenceTables } from './intelligence.tables.ts';
import type {
  IntelligenceCategory,
  IntelligenceEvent,
  IntelligenceEventFilter,
  IntelligenceKind,
  IntelligenceSeverity,
  StoredCorrelation,
  StoredGrade,
} from './intelligence.types.ts';

function toEvent(r: IntelligenceEventRow): IntelligenceEvent {
  return {
    id: r.id,
    organizationId: r.organization_id,
    monitorId: r.monitor_id,
    regionCode: r.region_code,
    category: r.category as IntelligenceCategory,
    kind: r.kind as IntelligenceKind,
    severity: r.severity as IntelligenceSeverity,
    summary: r.summary,
    before: fromJson<Record<string, unknown> | null>(r.before),
    after: fromJson<Record<string, unknown> | null>(r.after),
    startedAt: Number(r.started_at),
    endedAt: r.ended_at === null ? null : Number(r.ended_at),
    incidentId: r.incident_id,
    createdAt: Number(r.created_at),
  };
}

export interface StateKey {
  monitorId: string;
  regionCode: string;
}

const stateKey = (k: StateKey) => `${k.monitorId}\u0000${k.regionCode}`;

export class IntelligenceRepository {
  private readonly database: Database;
  constructor(database: Database) {
    this.database = database;
  }

  private get db() {
    return this.database.tables<IntelligenceTables>();
  }

  async insertEvent(e: IntelligenceEvent, openKey: string | null): Promise<void> {
    await this.db
      .insertInto('intelligence_event')
      .values({
        id: e.id,
        organization_id: e.organizationId,
        monitor_id: e.monitorId,
        region_code: e.regionCode,
        category: e.category,
        kind: e.kind,
        severity: e.severity,
        summary: e.summary,
        before: e.before === null ? null : toJson(e.before),
        after: e.after === null ? null : toJson(e.after),
        started_at: e.startedAt,
        ended_at: e.endedAt,
        incident_id: e.incidentId,
        open_key: openKey,
        created_at: e.createdAt,
      })
      .execute();
  }

  /** The open event waiting for `openKey` of the monitor and region, if any. */
  async findOpen(monitorId: string, regionCode: string | null, openKey: string): Promise<IntelligenceEvent | null> {
    let q = this.db
      .selectFrom('intelligence_event')
      .selectAll()
      .where('monitor_id', '=', monitorId)
      .where('open_key', '=', openKey)
      .where('ended_at', 'is', null);
    q = regionCode === null ? q.where('region_code', 'is', null) : q.where('region_code', '=', regionCode);
    const row = await q.orderBy('id', 'desc').executeTakeFirst();
    return row ? toEvent(row) : null;
  }

  async end(id: string, at: number): Promise<void> {
    await this.db.updateTable('intelligence_event').set({ ended_at: at }).where('id', '=', id).execute();
  }

  async setIncident(id: string, incidentId: string): Promise<void> {
    await this.db.updateTable('intelligence_event').set({ incident_id: incidentId }).where('id', '=', id).execute();
  }

  /** Newest first; `before` is the last id of the previous page. */
  async list(
    organizationId: string,
    filter: IntelligenceEventFilter,
    before: string | undefined,
    limit: number,
  ): Promise<IntelligenceEvent[]> {
    let q = this.db.selectFrom('intelligence_event').selectAll().where('organization_id', '=', organizationId);
    if (filter.monitorId) q = q.where('monitor_id', '=', filter.monitorId);
    if (filter.category) q = q.where('category', '=', filter.category);
    if (filter.kind) q = q.where('kind', '=', filter.kind);
    const from = filter.from;
    if (from !== undefined) q = q.where((eb) => eb.or([eb('ended_at', 'is', null), eb('ended_at', '>=', from)]));
    if (filter.to !== undefined) q = q.where('started_at', '<', filter.to);
    if (before) q = q.where('id', '<', before);
    const rows = await q.orderBy('id', 'desc').limit(limit).execute();
    return rows.map(toEvent);
  }

  /**
   * Events of [from, to) for reports, newest first: started inside it, or started before and ended at or after
   * `from`, or still open (anomalies, flapping, grade drops); a change (a point in time, never ended) only inside.
   */
  async listDuring(
    organizationId: string,
    window: { from: number; to: number },
    before: string | undefined,
    limit: number,
  ): Promise<IntelligenceEvent[]> {
    let q = this.db
      .selectFrom('intelligence_event')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('started_at', '<', window.to)
      .where((eb) =>
        eb.or([
          eb('started_at', '>=', window.from),
          eb('ended_at', '>=', window.from),
          eb.and([eb('ended_at', 'is', null), eb('kind', '<>', 'significant_change')]),
        ]),
      );
    if (before) q = q.where('id', '<', before);
    const rows = await q.orderBy('id', 'desc').limit(limit).execute();
    return rows.map(toEvent);
  }

  async find(organizationId: string, id: string): Promise<IntelligenceEvent | null> {
    const row = await this.db
      .selectFrom('intelligence_event')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? toEvent(row) : null;
  }

  async loadStates<T>(keys: readonly StateKey[]): Promise<Map<string, T>> {
    const out = new Map<string, T>();
    const monitorIds = [...new Set(keys.map((k) => k.monitorId))];
    if (monitorIds.length === 0) return out;
    const rows = await this.db
      .selectFrom('intelligence_state')
      .select(['monitor_id', 'region_code', 'state'])
      .where('monitor_id', 'in', monitorIds)
      .execute();
    for (const r of rows)
      out.set(stateKey({ monitorId: r.monitor_id, regionCode: r.region_code }), fromJson<T>(r.state));
    return out;
  }

  /** The versions (`updated_at`) of every state row of the monitors, without their texts. */
  async stateVersions(
    monitorIds: readonly string[],
  ): Promise<Array<{ monitorId: string; regionCode: string; updatedAt: number }>> {
    if (monitorIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('intelligence_state')
      .select(['monitor_id', 'region_code', 'updated_at'])
      .where('monitor_id', 'in', [...new Set(monitorIds)])
      .execute();
    return rows.map((r) => ({ monitorId: r.monitor_id, regionCode: r.region_code, updatedAt: Number(r.updated_at) }));
  }

  /** The texts of the given state rows, by `stateKey`. */
  async loadStateTexts(keys: readonly StateKey[]): Promise<Map<string, { text: string; updatedAt: number }>> {
    const out = new Map<string, { text: string; updatedAt: number }>();
    if (keys.length === 0) return out;
    const rows = await this.db
      .selectFrom('intelligence_state')
      .select(['monitor_id', 'region_code', 'state', 'updated_at'])
      .where('monitor_id', 'in', [...new Set(keys.map((k) => k.monitorId))])
      .where('region_code', 'in', [...new Set(keys.map((k) => k.regionCode))])
      .execute();
    for (const r of rows)
      out.set(stateKey({ monitorId: r.monitor_id, regionCode: r.region_code }), {
        text: r.state,
        updatedAt: Number(r.updated_at),
      });
    return out;
  }

  /** Upserts many state rows in one statement (the engine's batch: one row per monitor and region). */
  async saveStateTexts(rows: ReadonlyArray<{ key: StateKey; text: string; updatedAt: number }>): Promise<void> {
    if (rows.length === 0) return;
    await this.db
      .insertInto('intelligence_state')
      .values(
        rows.map((r) => ({
          monitor_id: r.key.monitorId,
          region_code: r.key.regionCode,
          state: r.text,
          updated_at: r.updatedAt,
        })),
      )
      .onConflict((oc) =>
        oc.columns(['monitor_id', 'region_code']).doUpdateSet((eb) => ({
          state: eb.ref('excluded.state'),
          updated_at: eb.ref('excluded.updated_at'),
        })),
      )
      .execute();
  }

  async saveStateText(key: StateKey, text: string, updatedAt: number): Promise<void> {
    await this.db
      .insertInto('intelligence_state')
      .values({ monitor_id: key.monitorId, region_code: key.regionCode, state: text, updated_at: updatedAt })
      .onConflict((oc) => oc.columns(['monitor_id', 'region_code']).doUpdateSet({ state: text, updated_at: updatedAt }))
      .execute();
  }

  async saveState(key: StateKey, state: unknown, now: number): Promise<void> {
    const text = toJson(state);
    await this.db
      .insertInto('intelligence_state')
      .values({ monitor_id: key.monitorId, region_code: key.regionCode, state: text, updated_at: now })
      .onConflict((oc) => oc.columns(['monitor_id', 'region_code']).doUpdateSet({ state: text, updated_at: now }))
      .execute();
  }

  /** Monitors with checks whose last grading (the '' state row) is older than `gradedBefore`, or never. */
  async monitorsDueForGrading(gradedBefore: number, limit: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('intelligence_state as s')
      .select('s.monitor_id')
      .distinct()
      .where('s.region_code', '<>', '')
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('intelligence_state as g')
              .select('g.monitor_id')
              .whereRef('g.monitor_id', '=', 's.monitor_id')
              .where('g.region_code', '=', '')
              .where('g.updated_at', '>', gradedBefore),
          ),
        ),
      )
      .orderBy('s.monitor_id')
      .limit(limit)
      .execute();
    return rows.map((r) => r.monitor_id);
  }

  async insertObservation(key: StateKey, at: number, snapshot: unknown): Promise<void> {
    await this.db
      .insertInto('intelligence_observation')
      .values({ monitor_id: key.monitorId, region_code: key.regionCode, observed_at: at, snapshot: toJson(snapshot) })
      .execute();
  }

  async observations(
    monitorId: string,
    limit: number,
  ): Promise<Array<{ regionCode: string; observedAt: number; snapshot: Record<string, unknown> }>> {
    const rows = await this.db
      .selectFrom('intelligence_observation')
      .selectAll()
      .where('monitor_id', '=', monitorId)
      .orderBy('observed_at', 'desc')
      .limit(limit)
      .execute();
    return rows.map((r) => ({
      regionCode: r.region_code,
      observedAt: Number(r.observed_at),
      snapshot: fromJson<Record<string, unknown>>(r.snapshot),
    }));
  }

  async insertGrade(monitorId: string, g: StoredGrade): Promise<void> {
    await this.db
      .insertInto('intelligence_grade')
      .values({
        monitor_id: monitorId,
        kind: g.kind,
        grade: g.grade,
        score: g.score,
        reasons: toJson(g.reasons),
        not_tested: toJson(g.notTested),
        graded_at: g.gradedAt,
      })
      .execute();
  }

  /** Newest first, up to `limit` per monitor (all kinds). */
  async grades(monitorId: string, limit: number): Promise<StoredGrade[]> {
    const rows = await this.db
      .selectFrom('intelligence_grade')
      .selectAll()
      .where('monitor_id', '=', monitorId)
      .orderBy('graded_at', 'desc')
      .limit(limit)
      .execute();
    return rows.map((r) => ({
      kind: r.kind as 'tls' | 'domain',
      grade: r.grade,
      score: Number(r.score),
      reasons: fromJson<string[]>(r.reasons),
      notTested: fromJson<string[]>(r.not_tested),
      gradedAt: Number(r.graded_at),
    }));
  }

  async saveAttributes(organizationId: string, key: StateKey, attributes: unknown, at: number): Promise<void> {
    const text = toJson(attributes);
    await this.db
      .insertInto('intelligence_attributes')
      .values({
        monitor_id: key.monitorId,
        region_code: key.regionCode,
        organization_id: organizationId,
        attributes: text,
        updated_at: at,
      })
      .onConflict((oc) => oc.columns(['monitor_id', 'region_code']).doUpdateSet({ attributes: text, updated_at: at }))
      .execute();
  }

  /** Changes whenever an attributes row of the organization is written or added (count and latest write). */
  async attributesVersion(organizationId: string): Promise<string> {
    const row = await this.db
      .selectFrom('intelligence_attributes')
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.max('updated_at').as('last')])
      .where('organization_id', '=', organizationId)
      .executeTakeFirst();
    return `${Number(row?.n ?? 0)}:${Number(row?.last ?? 0)}`;
  }

  async attributesOf(
    organizationId: string,
  ): Promise<Array<{ monitorId: string; regionCode: string; attributes: Record<string, unknown> }>> {
    const rows = await this.db
      .selectFrom('intelligence_attributes')
      .select(['monitor_id', 'region_code', 'attributes'])
      .where('organization_id', '=', organizationId)
      .execute();
    return rows.map((r) => ({
      monitorId: r.monitor_id,
      regionCode: r.region_code,
      attributes: fromJson<Record<string, unknown>>(r.attributes),
    }));
  }

  /** Records signals and forgets those older than `forgetBefore`. */
  async addSignals(
    signals: ReadonlyArray<{
      organizationId: string;
      monitorId: string;
      regionCode: string;
      at: number;
      reason: string;
    }>,
    forgetBefore: number,
  ): Promise<void> {
    if (signals.length === 0) return;
    await this.db
      .insertInto('intelligence_signal')
      .values(
        signals.map((x) => ({
          organization_id: x.organizationId,
          monitor_id: x.monitorId,
          region_code: x.regionCode,
          at: x.at,
          reason: x.reason,
        })),
      )
      .execute();
    await this.db.deleteFrom('intelligence_signal').where('at', '<', forgetBefore).execute();
  }

  async signalsSince(
    organizationId: string,
    since: number,
  ): Promise<Array<{ monitorId: string; regionCode: string; at: number; reason: string }>> {
    const rows = await this.db
      .selectFrom('intelligence_signal')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('at', '>=', since)
      .execute();
    return rows.map((r) => ({
      monitorId: r.monitor_id,
      regionCode: r.region_code,
      at: Number(r.at),
      reason: r.reason,
    }));
  }

  /**
   * The organization's correlations seen since `seenSince`, by `attribute value` (the newest of each): those to
   * extend instead of repeating them.
   */
  async recentCorrelations(organizationId: string, seenSince: number): Promise<Map<string, StoredCorrelation>> {
    const rows = await this.db
      .selectFrom('intelligence_correlation')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('last_seen_at', '>=', seenSince)
      .orderBy('last_seen_at', 'asc')
      .execute();
    const out = new Map<string, StoredCorrelation>();
    for (const r of rows) out.set(`${r.attribute} ${r.value}`, toCorrelation(r));
    return out;
  }

  async saveCorrelation(c: StoredCorrelation, isNew: boolean): Promise<void> {
    const values = {
      id: c.id,
      organization_id: c.organizationId,
      attribute: c.attribute,
      value: c.value,
      monitor_ids: toJson(c.monitorIds),
      coverage: c.coverage,
      summary: c.summary,
      started_at: c.startedAt,
      last_seen_at: c.lastSeenAt,
    };
    if (isNew) await this.db.insertInto('intelligence_correlation').values(values).execute();
    else await this.db.updateTable('intelligence_correlation').set(values).where('id', '=', c.id).execute();
  }

  async correlations(organizationId: string, from: number, to: number): Promise<StoredCorrelation[]> {
    const rows = await this.db
      .selectFrom('intelligence_correlation')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('last_seen_at', '>=', from)
      .where('started_at', '<', to)
      .orderBy('started_at', 'desc')
      .limit(500)
      .execute();
    return rows.map(toCorrelation);
  }

  /** The correlations involving `monitorId` seen at some point in [from, to], oldest first. */
  async correlationsOfMonitor(
    organizationId: string,
    monitorId: string,
    from: number,
    to: number,
  ): Promise<StoredCorrelation[]> {
    const rows = await this.db
      .selectFrom('intelligence_correlation')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('last_seen_at', '>=', from)
      .where('started_at', '<=', to)
      // A coarse pre-filter on the JSON list ('_' in ids only widens the match); exact membership is checked below.
      .where('monitor_ids', 'like', `%"${monitorId}"%`)
      .orderBy('started_at', 'asc')
      .limit(100)
      .execute();
    return rows.map(toCorrelation).filter((c) => c.monitorIds.includes(monitorId));
  }
}

function toCorrelation(r: IntelligenceTables['intelligence_correlation']): StoredCorrelation {
  return {
    id: r.id,
    organizationId: r.organization_id,
    attribute: r.attribute,
    value: r.value,
    monitorIds: fromJson<string[]>(r.monitor_ids),
    coverage: Number(r.coverage),
    summary: r.summary,
    startedAt: Number(r.started_at),
    lastSeenAt: Number(r.last_seen_at),
  };
}

export { stateKey };
