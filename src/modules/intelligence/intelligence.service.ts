import { createHash } from 'node:crypto';
import type { Clock } from '../../platform/clock.ts';
import { toIso } from '../../platform/clock.ts';
import { decodeIdCursor, pageOf } from '../../platform/cursor.ts';
import type { Database } from '../../platform/db/index.ts';
import { notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { canSeeEnvironment, type Actor, type ServiceContext } from '../auth/index.ts';
import type { EventsService } from '../events/index.ts';
import { newChangeState, observeSnapshot, type ChangeState } from './change.detector.ts';
import { newGradeTrack, observeGrade, type GradeKind, type GradeTrack } from './grade.tracker.ts';
import type {
  Finding,
  IncidentCorrelation,
  IncidentWindow,
  IntelligenceEvent,
  IntelligenceEventFilter,
  IntelligenceKind,
  StoredCorrelation,
  StoredGrade,
} from './intelligence.types.ts';
import { IntelligenceRepository, stateKey, type StateKey } from './intelligence.repository.ts';
import {
  DEFAULT_LATENCY_SETTINGS,
  newLatencyState,
  observeCheck,
  type LatencySettings,
  type LatencyState,
} from './latency.detector.ts';
import { snapshotOf, type ObservationSnapshot } from './observation.normalise.ts';
import {
  DEFAULT_CORRELATION_SETTINGS,
  findCorrelations,
  type Correlation,
  type CorrelationSignal,
  type MonitorAttributes,
} from './correlation.detector.ts';
import { DEFAULT_CHANGE_SETTINGS, type ChangeSettings } from './change.detector.ts';
import type { GradeResult } from './tls.grade.ts';

/** One finished check as the engine hands it over (inside its batch transaction). */
export interface IntelligenceCheck {
  organizationId: string;
  monitorId: string;
  monitorName: string;
  target: string;
  /** The monitor's type (http, tls, dns, …): decides how `details` read. */
  type: string;
  regionCode: string;
  at: number;
  up: boolean;
  latencyMs: number;
  alertLatencyMs: number | null;
  /** `config.intelligence_incidents`: anomalies and grade drops open incidents with source `intelligence`. */
  openIncidents: boolean;
  details?: Record<string, unknown> | undefined;
}

/** What intelligence needs of the incidents module (wired in main.ts). */
export interface IntelligenceIncidents {
  /** Opens an incident with source `intelligence` for the monitor, in `tx`; returns its id. */
  openFromIntelligence(
    tx: Database,
    input: { organizationId: string; monitorId: string; title: string; cause: string; at: number },
  ): Promise<string>;
  /** Resolves it (automatically) when what opened it ended. */
  resolveFromIntelligence(tx: Database, organizationId: string, incidentId: string, at: number): Promise<void>;
}

/** What intelligence needs of the monitors module (MonitorsService satisfies it). */
export interface IntelligenceMonitors {
  findManyAnywhere(ids: readonly string[]): Promise<Array<{ id: string; organizationId: string; environment: string }>>;
}

export interface IntelligenceSettings {
  latency: LatencySettings;
  changes: ChangeSettings;
  /**
   * A region's state is written back when something that decides an event changed (a finding, a phase, a streak,
   * a new observation, an hour closing) and otherwise at most this often: between writes only the current hour's
   * samples and the last-seen times of known values move, and a process that dies loses at most this much of them.
   */
  stateWriteMs?: number;
}

export const DEFAULT_STATE_WRITE_MS = 5 * 60_000;

export const DEFAULT_INTELLIGENCE_SETTINGS: IntelligenceSettings = {
  latency: DEFAULT_LATENCY_SETTINGS,
  changes: DEFAULT_CHANGE_SETTINGS,
  stateWriteMs: DEFAULT_STATE_WRITE_MS,
};

/**
 * Maintenance windows (DECISIONS §16), wired in the composition root: inside a window that suppresses alerts, what
 * intelligence finds is stored but neither alerted nor made an incident.
 */
export interface IntelligenceMaintenance {
  suppressesAlerts(db: Database, organizationId: string, monitorId: string, at: number): Promise<boolean>;
}

export interface IntelligenceServiceDeps {
  database: Database;
  clock: Clock;
  events: Pick<EventsService, 'record'>;
  monitors: IntelligenceMonitors;
  /** null: `intelligence_incidents` has no effect (not wired). */
  incidents: IntelligenceIncidents | null;
  /** Absent or null: no windows (everything found is alerted). */
  maintenance?: IntelligenceMaintenance | null;
  settings?: IntelligenceSettings;
}

/** Per monitor+region: the latency watches, the change watch and the digest of the last stored observation. */
interface RegionState {
  latency: LatencyState;
  changes: ChangeState;
  snapshotDigest: string | null;
  /** The last check failed (a correlation signal is raised when a region starts failing). */
  failing?: boolean;
}

/**
 * A region's state as this process holds it between batches. The row's `updated_at` is its version: while the
 * database still has the version this process wrote or read, the decoded copy is current (no other process
 * judged that monitor and region since), and its text is not read again.
 */
interface CachedRegion {
  state: RegionState;
  /** `updated_at` of the hot row as this process last wrote or read it (null: no row yet). */
  version: number | null;
  learntVersion: number | null;
  /** controlOf(state) at the last write, and when that was. */
  written: string;
  /**
   * The JSON of the last snapshot seen, whose digest is `state.snapshotDigest` (null: none yet in this process). A
   * target's answer rarely changes: comparing the text skips hashing it on every check.
   */
  snapshotText: string | null;
  writtenAt: number;
  /** False while a batch that changed it has not committed: a rollback leaves it for the database's copy. */
  committed: boolean;
  /** The last batch that changed it: only that batch's commit marks it committed (two batches may overlap). */
  batch: object | null;
  usedAt: number;
}

/** Per monitor (region ''): the grade tracks. */
interface MonitorState {
  grades: Partial<Record<GradeKind, GradeTrack>>;
}

const MONITOR_REGION = '';
/** The learnt baseline of a region is stored in its own row, region code + this suffix. */
const LEARNT_SUFFIX = '#learnt';
const learntRegionOf = (regionCode: string) => `${regionCode}${LEARNT_SUFFIX}`;

type Learnt = Pick<LatencyState['baseline'], 'hours' | 'seasonal'>;

/** Version of the learnt part: the start of its last closed hour (−1 before any). */
function learntVersionOf(hours: Learnt['hours']): number {
  return hours.at(-1)?.[0] ?? -1;
}
/** Kinds that open an incident when the monitor asks for it. */
const INCIDENT_KINDS: ReadonlySet<IntelligenceKind> = new Set([
  'anomaly_alert',
  'performance_anomaly',
  'security_grade_downgraded',
]);
const SCAN_BATCH = 200;

interface Subject {
  organizationId: string;
  monitorId: string;
  monitorName: string;
  target: string;
  regionCode: string | null;
  openIncidents: boolean;
}

/**
 * Intelligence (DECISIONS §13): turns checks and gradings into stored intelligence events and outbox events,
 * in the caller's transaction.
 */
export class IntelligenceService {
  private readonly deps: IntelligenceServiceDeps;
  private readonly settings: IntelligenceSettings;
  /** Decoded learnt baselines by state key, with the version they were decoded at (see loadRegionStates). */
  private readonly learnt = new Map<string, { version: number; value: Learnt }>();
  /** Decoded region states by state key (see CachedRegion). */
  private readonly regions = new Map<string, CachedRegion>();
  private lastSweep = 0;
  /** Decoded correlation populations by organization, with the attributes version they were read at. */
  private readonly populations = new Map<string, { version: string; population: Map<string, MonitorAttributes> }>();
  constructor(deps: IntelligenceServiceDeps) {
    this.deps = deps;
    this.settings = deps.settings ?? DEFAULT_INTELLIGENCE_SETTINGS;
  }

  /** Called by the check engine with its batch, in time order, inside the batch's transaction `tx`. */
  async applyChecks(tx: Database, checks: readonly IntelligenceCheck[]): Promise<void> {
    if (checks.length === 0) return;
    const repo = new IntelligenceRepository(tx);
    const now = this.deps.clock.now();
    const batch = {};
    const states = await this.loadRegionStates(repo, checks, now);
    const touched = new Map<string, StateKey>();
    const withFindings = new Set<string>();
    const signals: Array<CorrelationSignal & { organizationId: string }> = [];
    for (const check of checks) {
      const key = { monitorId: check.monitorId, regionCode: check.regionCode };
      const id = stateKey(key);
      let entry = states.get(id);
      if (!entry) {
        const state: RegionState = { latency: newLatencyState(), changes: newChangeState(), snapshotDigest: null };
        entry = {
          state,
          version: null,
          learntVersion: null,
          written: '',
          snapshotText: null,
          writtenAt: 0,
          committed: false,
          batch,
          usedAt: now,
        };
        states.set(id, entry);
        this.regions.set(id, entry);
      }
      entry.committed = false;
      entry.batch = batch;
      const state = entry.state;
      touched.set(id, key);
      const findings = observeCheck(
        state.latency,
        { at: check.at, up: check.up, latencyMs: Math.round(check.latencyMs * 10) / 10 },
        check.alertLatencyMs,
        this.settings.latency,
      );
      const snapshot = snapshotOf(check.type, check.up, check.details);
      if (snapshot) {
        const text = JSON.stringify(snapshot);
        let digest = state.snapshotDigest;
        // The kept text is replaced only when it changed: a fresh copy on every check would outlive young collections.
        if (text !== entry.snapshotText) {
          digest = digestOf(text);
          entry.snapshotText = text;
        }
        if (digest !== state.snapshotDigest) {
          await repo.insertObservation(key, check.at, snapshot);
          state.snapshotDigest = digest;
          await repo.saveAttributes(check.organizationId, key, attributesOf(snapshot), this.deps.clock.now());
        }
        findings.push(...observeSnapshot(state.changes, check.at, snapshot, this.settings.changes));
      }
      if (!check.up && !state.failing) signals.push({ ...signalOf(check), reason: 'down' });
      state.failing = !check.up;
      if (findings.some((f) => f.kind === 'anomaly_alert')) signals.push({ ...signalOf(check), reason: 'anomaly' });
      if (findings.length > 0) withFindings.add(id);
      for (const f of findings) await this.store(tx, repo, subjectOf(check), f, check.at);
    }
    if (signals.length > 0) await this.correlate(repo, signals);
    const writeEvery = this.settings.stateWriteMs ?? DEFAULT_STATE_WRITE_MS;
    const rows: Array<{ key: StateKey; text: string; updatedAt: number }> = [];
    const entries: CachedRegion[] = [];
    for (const [id, key] of touched) {
      const entry = states.get(id)!;
      entries.push(entry);
      const { hours, seasonal, ...hot } = entry.state.latency.baseline;
      const learntVersion = learntVersionOf(hours);
      const control = controlOf(entry.state);
      const due =
        entry.version === null ||
        withFindings.has(id) ||
        learntVersion !== entry.learntVersion ||
        control !== entry.written ||
        now - entry.writtenAt >= writeEvery;
      if (!due) continue;
      const latency = { ...entry.state.latency, baseline: { ...hot, hours: [], seasonal: [] } };
      // The version must change with every write, or another process could keep a copy older than the row.
      const version = entry.version !== null && now <= entry.version ? entry.version + 1 : now;
      rows.push({ key, text: JSON.stringify({ ...entry.state, latency }), updatedAt: version });
      entry.version = version;
      entry.written = control;
      entry.writtenAt = now;
      // The learnt part (hourly summaries, hour-of-week buckets) changes once an hour: written only then.
      if (learntVersion !== entry.learntVersion) {
        const learntKey = { monitorId: key.monitorId, regionCode: learntRegionOf(key.regionCode) };
        rows.push({ key: learntKey, text: JSON.stringify({ hours, seasonal }), updatedAt: learntVersion });
        this.learnt.set(stateKey(learntKey), { version: learntVersion, value: { hours, seasonal } });
        entry.learntVersion = learntVersion;
      }
    }
    await repo.saveStateTexts(rows);
    tx.afterCommit(() => {
      for (const entry of entries) if (entry.batch === batch) entry.committed = true;
    });
    this.sweep(now);
  }

  /** Forgets regions this process has not judged for an hour (their monitor moved to another process, or stopped). */
  private sweep(now: number): void {
    if (now - this.lastSweep < 10 * 60_000) return;
    this.lastSweep = now;
    for (const [id, entry] of this.regions) if (now - entry.usedAt > 3_600_000) this.regions.delete(id);
  }

  /** Records the signals and the correlations they complete (reference §6), per organization. */
  private async correlate(
    repo: IntelligenceRepository,
    signals: ReadonlyArray<CorrelationSignal & { organizationId: string }>,
  ): Promise<void> {
    const window = DEFAULT_CORRELATION_SETTINGS.windowMs;
    const now = Math.max(...signals.map((x) => x.at));
    await repo.addSignals(signals, now - 2 * window);
    for (const organizationId of new Set(signals.map((x) => x.organizationId))) {
      const recent = await repo.signalsSince(organizationId, now - window);
      if (new Set(recent.map((x) => x.monitorId)).size < DEFAULT_CORRELATION_SETTINGS.minSupport) continue;
      const population = await this.populationOf(repo, organizationId);
      const found = findCorrelations(
        recent.map((x) => ({
          monitorId: x.monitorId,
          regionCode: x.regionCode,
          at: x.at,
          reason: x.reason as 'down' | 'anomaly',
        })),
        population,
        now,
      );
      if (found.length === 0) continue;
      const open = await repo.recentCorrelations(organizationId, now - window);
      for (const c of found) await this.recordCorrelation(repo, organizationId, c, now, open);
    }
  }

  /**
   * The organization's monitors with their attributes. Decoded again only when a row was written since (the
   * attributes change with observations, rarely), so a batch with a failure does not decode every monitor.
   */
  private async populationOf(
    repo: IntelligenceRepository,
    organizationId: string,
  ): Promise<Map<string, MonitorAttributes>> {
    const version = await repo.attributesVersion(organizationId);
    const cached = this.populations.get(organizationId);
    if (cached?.version === version) return cached.population;
    const population = new Map<string, MonitorAttributes>();
    for (const row of await repo.attributesOf(organizationId)) {
      const a = row.attributes as {
        addresses?: string[];
        cdn?: string | null;
        dns_provider?: string | null;
        certificate_issuer?: string | null;
      };
      const m = population.get(row.monitorId) ?? {
        addresses: [],
        certificateIssuer: null,
        cdn: null,
        dnsProvider: null,
        regions: [],
      };
      population.set(row.monitorId, {
        addresses: [...new Set([...m.addresses, ...(a.addresses ?? [])])],
        certificateIssuer: m.certificateIssuer ?? a.certificate_issuer ?? null,
        cdn: m.cdn ?? a.cdn ?? null,
        dnsProvider: m.dnsProvider ?? a.dns_provider ?? null,
        regions: [...m.regions, row.regionCode],
      });
    }
    this.populations.set(organizationId, { version, population });
    return population;
  }

  /** `open`: the organization's correlations still within their window, by `attribute value` (updated in place). */
  private async recordCorrelation(
    repo: IntelligenceRepository,
    organizationId: string,
    c: Correlation,
    now: number,
    open: Map<string, StoredCorrelation>,
  ): Promise<void> {
    const existing = open.get(`${c.attribute} ${c.value}`) ?? null;
    const record: StoredCorrelation = existing
      ? {
          ...existing,
          monitorIds: [...new Set([...existing.monitorIds, ...c.monitorIds])].sort(),
          coverage: Math.max(existing.coverage, c.coverage),
          summary: c.summary,
          lastSeenAt: c.to,
        }
      : {
          id: newId('cor', now),
          organizationId,
          attribute: c.attribute,
          value: c.value,
          monitorIds: c.monitorIds,
          coverage: c.coverage,
          summary: c.summary,
          startedAt: c.from,
          lastSeenAt: c.to,
        };
    await repo.saveCorrelation(record, !existing);
    open.set(`${c.attribute} ${c.value}`, record);
  }

  /** Correlations seen in [from, to), restricted to the monitors the key can see (none visible: left out). */
  async correlations(ctx: ServiceContext, from: number, to: number): Promise<StoredCorrelation[]> {
    const rows = await new IntelligenceRepository(ctx.db).correlations(ctx.actor.organizationId, from, to);
    const visible = await this.visibleMonitors(
      ctx.actor,
      rows.flatMap((c) => c.monitorIds),
    );
    return rows.map((c) => ({ ...c, monitorIds: c.monitorIds.filter(visible) })).filter((c) => c.monitorIds.length > 0);
  }

  /**
   * The correlations involving the incident's monitor while the incident was open. The window starts one
   * correlation window before the opening: the failure signal comes with the first failed check, the incident
   * only after the confirmations. Other monitors the key cannot see are left out (the correlation is kept: its
   * attribute still explains the incident).
   */
  async incidentCorrelations(ctx: ServiceContext, incident: IncidentWindow): Promise<IncidentCorrelation[]> {
    if (incident.monitorId === null) return [];
    const monitorId = incident.monitorId;
    const rows = await new IntelligenceRepository(ctx.db).correlationsOfMonitor(
      ctx.actor.organizationId,
      monitorId,
      incident.openedAt - DEFAULT_CORRELATION_SETTINGS.windowMs,
      incident.resolvedAt ?? ctx.clock.now(),
    );
    const visible = await this.visibleMonitors(
      ctx.actor,
      rows.flatMap((c) => c.monitorIds),
    );
    return rows.map((c) => ({
      id: c.id,
      attribute: c.attribute,
      value: c.value,
      otherMonitorIds: c.monitorIds.filter((id) => id !== monitorId && visible(id)),
      summary: c.summary,
      startedAt: c.startedAt,
      lastSeenAt: c.lastSeenAt,
    }));
  }

  /**
   * The batch's states. Only the versions (`updated_at`) of the monitors' state rows are read; a row's text is
   * fetched and decoded only when this process's copy is missing or older than the row: decoding the state (and a
   * week of learnt buckets) per check would cost more than the check.
   */
  private async loadRegionStates(
    repo: IntelligenceRepository,
    checks: readonly IntelligenceCheck[],
    now: number,
  ): Promise<Map<string, CachedRegion>> {
    const rows = await repo.stateVersions(checks.map((c) => c.monitorId));
    const out = new Map<string, CachedRegion>();
    const learntVersions = new Map<string, number>();
    const stale: StateKey[] = [];
    const staleHot: Array<{ key: StateKey; version: number }> = [];
    for (const r of rows) {
      if (r.regionCode === MONITOR_REGION) continue;
      const key = { monitorId: r.monitorId, regionCode: r.regionCode };
      const id = stateKey(key);
      if (r.regionCode.endsWith(LEARNT_SUFFIX)) {
        learntVersions.set(id, r.updatedAt);
        if (this.learnt.get(id)?.version !== r.updatedAt) stale.push(key);
        continue;
      }
      const cached = this.regions.get(id);
      if (cached?.committed && cached.version === r.updatedAt) {
        cached.usedAt = now;
        out.set(id, cached);
      } else {
        stale.push(key);
        staleHot.push({ key, version: r.updatedAt });
      }
    }
    if (stale.length === 0) return out;
    const texts = await repo.loadStateTexts(stale);
    for (const [id, row] of texts)
      if (learntVersions.has(id))
        this.learnt.set(id, { version: row.updatedAt, value: JSON.parse(row.text) as Learnt });
    for (const { key } of staleHot) {
      const id = stateKey(key);
      const row = texts.get(id);
      if (!row) continue;
      const state = JSON.parse(row.text) as RegionState;
      const learntId = stateKey({ monitorId: key.monitorId, regionCode: learntRegionOf(key.regionCode) });
      let learntVersion: number | null = null;
      const learnt = learntVersions.has(learntId) ? this.learnt.get(learntId) : undefined;
      if (learnt) {
        state.latency.baseline.hours = learnt.value.hours;
        state.latency.baseline.seasonal = learnt.value.seasonal;
        learntVersion = learnt.version;
      }
      const entry: CachedRegion = {
        state,
        version: row.updatedAt,
        learntVersion,
        written: controlOf(state),
        snapshotText: null,
        writtenAt: row.updatedAt,
        committed: true,
        batch: null,
        usedAt: now,
      };
      this.regions.set(id, entry);
      out.set(id, entry);
    }
    return out;
  }

  /** Records a grading of the monitor (by the grader role): history when it changed, events on drop/recovery. */
  async recordGrade(
    tx: Database,
    monitor: { organizationId: string; id: string; name: string; target: string; openIncidents: boolean },
    kind: GradeKind,
    result: GradeResult<string>,
    at: number,
  ): Promise<void> {
    const repo = new IntelligenceRepository(tx);
    const key = { monitorId: monitor.id, regionCode: MONITOR_REGION };
    const state = (await repo.loadStates<MonitorState>([key])).get(stateKey(key)) ?? { grades: {} };
    const track = state.grades[kind] ?? newGradeTrack();
    const last = (await repo.grades(monitor.id, 20)).find((g) => g.kind === kind);
    if (!last || last.grade !== result.grade || last.score !== result.score || !sameList(last.reasons, result.reasons))
      await repo.insertGrade(monitor.id, {
        kind,
        grade: result.grade,
        score: result.score,
        reasons: result.reasons,
        notTested: result.not_tested,
        gradedAt: at,
      });
    const findings = observeGrade(track, kind, at, result.grade, result.reasons);
    state.grades[kind] = track;
    const subject: Subject = {
      organizationId: monitor.organizationId,
      monitorId: monitor.id,
      monitorName: monitor.name,
      target: monitor.target,
      regionCode: null,
      openIncidents: monitor.openIncidents,
    };
    for (const f of findings) await this.store(tx, repo, subject, f, at);
    await repo.saveState(key, state, this.deps.clock.now());
  }

  private async store(
    tx: Database,
    repo: IntelligenceRepository,
    s: Subject,
    f: Finding,
    seenAt: number,
  ): Promise<void> {
    let startedAt = f.at;
    let endedAt: number | null = null;
    let incidentId: string | null = null;
    if (f.closes) {
      const open = await repo.findOpen(s.monitorId, s.regionCode, f.closes);
      if (open) {
        await repo.end(open.id, f.at);
        startedAt = open.startedAt;
        incidentId = open.incidentId;
        if (incidentId && this.deps.incidents)
          await this.deps.incidents.resolveFromIntelligence(tx, s.organizationId, incidentId, f.at);
      }
      if (f.endOnly) return;
      endedAt = f.at;
    }
    const now = this.deps.clock.now();
    const event: IntelligenceEvent = {
      id: newId('ine', seenAt),
      organizationId: s.organizationId,
      monitorId: s.monitorId,
      regionCode: s.regionCode,
      category: f.category,
      kind: f.kind,
      severity: f.severity,
      summary: f.summary,
      before: f.before,
      after: f.after,
      startedAt,
      endedAt,
      incidentId,
      createdAt: now,
    };
    // Inside a window that suppresses alerts (judged at the start of what it belongs to, so the end of something
    // found inside is as quiet as its start, and the end of something alerted before the window is still told): stored
    // for the monitor's history, no incident, no outbox event, so no destination hears of it.
    const quiet = await this.deps.maintenance?.suppressesAlerts(tx, s.organizationId, s.monitorId, startedAt);
    if (quiet) {
      await repo.insertEvent(event, f.opens ?? null);
      return;
    }
    if (s.openIncidents && f.opens && INCIDENT_KINDS.has(f.kind) && this.deps.incidents) {
      event.incidentId = await this.deps.incidents.openFromIntelligence(tx, {
        organizationId: s.organizationId,
        monitorId: s.monitorId,
        title: `${titleOf(f.kind)}: ${s.monitorName}`,
        cause: f.summary,
        at: seenAt,
      });
    }
    await repo.insertEvent(event, f.opens ?? null);
    await this.deps.events.record(tx, {
      type: f.kind,
      organizationId: s.organizationId,
      monitorId: s.monitorId,
      incidentId: event.incidentId,
      occurredAt: seenAt,
      payload: payloadOf(event, s),
    });
  }

  async list(
    ctx: ServiceContext,
    filter: IntelligenceEventFilter,
    page: { limit: number; cursor?: string },
  ): Promise<{ data: IntelligenceEvent[]; next_cursor: string | null }> {
    let before = decodeIdCursor(page.cursor);
    const repo = new IntelligenceRepository(ctx.db);
    const visible: IntelligenceEvent[] = [];
    // Environment scoping hides events of monitors the key cannot see; read on until the page is full.
    for (;;) {
      const batchSize = Math.max(page.limit + 1, SCAN_BATCH);
      const rows = await repo.list(ctx.actor.organizationId, filter, before, batchSize);
      const allowed = await this.visibleMonitors(
        ctx.actor,
        rows.map((r) => r.monitorId),
      );
      for (const row of rows) {
        if (allowed(row.monitorId)) visible.push(row);
        if (visible.length > page.limit) break;
      }
      if (visible.length > page.limit || rows.length < batchSize) break;
      before = rows[rows.length - 1]!.id;
    }
    return pageOf(visible, page.limit, (e) => e.id);
  }

  /**
   * Every event of [from, to) the key may see (reports): started inside, or lasting into it; changes only inside.
   * Read 200 at a time, newest first; environment scoping as in `list`.
   */
  async listDuring(ctx: ServiceContext, window: { from: number; to: number }): Promise<IntelligenceEvent[]> {
    const repo = new IntelligenceRepository(ctx.db);
    const out: IntelligenceEvent[] = [];
    let before: string | undefined;
    for (;;) {
      const rows = await repo.listDuring(ctx.actor.organizationId, window, before, SCAN_BATCH);
      const allowed = await this.visibleMonitors(
        ctx.actor,
        rows.map((r) => r.monitorId),
      );
      out.push(...rows.filter((r) => allowed(r.monitorId)));
      if (rows.length < SCAN_BATCH) return out;
      before = rows[rows.length - 1]!.id;
    }
  }

  async get(ctx: ServiceContext, id: string): Promise<IntelligenceEvent> {
    const event = await new IntelligenceRepository(ctx.db).find(ctx.actor.organizationId, id);
    if (!event || !(await this.visibleMonitors(ctx.actor, [event.monitorId]))(event.monitorId))
      throw notFound('Intelligence event');
    return event;
  }

  /** The monitor's current grade per kind and its history (newest first). 404 when the key cannot see it. */
  async grades(ctx: ServiceContext, monitorId: string): Promise<{ current: StoredGrade[]; history: StoredGrade[] }> {
    const [monitor] = await this.deps.monitors.findManyAnywhere([monitorId]);
    if (
      !monitor ||
      monitor.organizationId !== ctx.actor.organizationId ||
      !canSeeEnvironment(ctx.actor, monitor.environment)
    )
      throw notFound('Monitor');
    const history = await new IntelligenceRepository(ctx.db).grades(monitorId, 100);
    const current: StoredGrade[] = [];
    for (const g of history) if (!current.some((c) => c.kind === g.kind)) current.push(g);
    return { current, history };
  }

  private async visibleMonitors(actor: Actor, monitorIds: readonly string[]): Promise<(id: string) => boolean> {
    const monitors = await this.deps.monitors.findManyAnywhere([...new Set(monitorIds)]);
    const hidden = new Set(
      monitors
        .filter((m) => m.organizationId === actor.organizationId && !canSeeEnvironment(actor, m.environment))
        .map((m) => m.id),
    );
    return (id) => !hidden.has(id);
  }
}

function subjectOf(c: IntelligenceCheck): Subject {
  return {
    organizationId: c.organizationId,
    monitorId: c.monitorId,
    monitorName: c.monitorName,
    target: c.target,
    regionCode: c.regionCode,
    openIncidents: c.openIncidents,
  };
}

function signalOf(c: IntelligenceCheck): CorrelationSignal & { organizationId: string } {
  return {
    organizationId: c.organizationId,
    monitorId: c.monitorId,
    regionCode: c.regionCode,
    at: c.at,
    reason: 'down',
  };
}

/** What correlations compare of a snapshot. */
function attributesOf(snapshot: ObservationSnapshot): Record<string, unknown> {
  return {
    addresses: snapshot.infrastructure?.addresses ?? [],
    cdn: snapshot.infrastructure?.cdn ?? null,
    dns_provider: snapshot.infrastructure?.dns_provider ?? null,
    certificate_issuer: snapshot.tls?.issuer ?? null,
  };
}

/**
 * What decides events in a region's state, as one string: when it differs from the last write, the state is written
 * in this batch. Left out (written at least every `stateWriteMs`): the current hour's samples, the last-seen times of
 * known values and the flapping history (which shifts on every check for a while after each failure) — losing a few
 * minutes of them in a crash delays a judgement at most; what would repeat or lose an event is always written.
 */
function controlOf(s: RegionState): string {
  const b = s.latency.baseline;
  const f = s.latency.flapping;
  const t = s.latency.threshold;
  return `${b.firstAt}|${b.hourStart}|${b.phase}|${b.phaseSince}|${b.openedAt}|${b.peakMs}|${b.alerted}|${f.flapping}|${t.above}|${t.streak}|${t.streakSince}|${t.peakMs}|${s.failing === true}|${s.snapshotDigest}`;
}

/** Of a snapshot's JSON. */
function digestOf(snapshotText: string): string {
  return createHash('sha256').update(snapshotText).digest('base64url').slice(0, 22);
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

function titleOf(kind: IntelligenceKind): string {
  switch (kind) {
    case 'anomaly_alert':
      return 'Latency anomaly';
    case 'performance_anomaly':
      return 'Slow responses';
    case 'security_grade_downgraded':
      return 'Security grade dropped';
    default:
      return 'Intelligence';
  }
}

/** The outbox payload: what destinations render (destination.message.ts reads summary, latency_ms, grade …). */
function payloadOf(e: IntelligenceEvent, s: Subject): Record<string, unknown> {
  const after = e.after ?? {};
  const before = e.before ?? {};
  return {
    intelligence_event_id: e.id,
    monitor_name: s.monitorName,
    target: s.target,
    region_code: e.regionCode,
    category: e.category,
    kind: e.kind,
    severity: e.severity,
    summary: e.summary,
    started_at: toIso(e.startedAt),
    ended_at: e.endedAt === null ? null : toIso(e.endedAt),
    before: e.before,
    after: e.after,
    ...(typeof after.latency_ms === 'number' ? { latency_ms: after.latency_ms } : {}),
    ...(typeof after.threshold_ms === 'number' ? { threshold_ms: after.threshold_ms } : {}),
    ...(typeof after.grade === 'string' ? { grade: after.grade, grade_kind: after.grade_kind } : {}),
    ...(typeof before.grade === 'string' ? { previous_grade: before.grade } : {}),
  };
}
