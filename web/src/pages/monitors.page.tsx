import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { memo, useCallback, useEffect, useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useApi } from '../api/context';
import type { MonitorFilters } from '../api/monitors';
import { useMonitorPages, type MonitorSort, type MonitorSummary } from '../api/monitor-pages';
import { RowStatsBatcher, RowStatsContext, useRowStats } from '../api/row-stats';
import { can, useSession } from '../api/session';
import { lastDays } from '../lib/days';
import { percent, plural, relativeTime } from '../lib/format';
import { Sparkline, UptimeBar } from '../ui/charts';
import { EmptyState, ErrorState, PageHeader } from '../ui/kit';
import { StatusBadge } from '../ui/status';
import { BulkBar } from './monitors.bulk';

const STATUSES = ['down', 'degraded', 'pending', 'maintenance', 'up', 'paused'] as const;
const TYPES = [
  'http',
  'tls',
  'tcp',
  'dns',
  'grpc',
  'heartbeat',
  'icmp',
  'udp',
  'domain',
  'smtp',
  'websocket',
  'postgres',
  'mysql',
  'redis',
] as const;
// The server sorts (GET /monitors/summaries `sort`): the list never holds more than the pages scrolled through.
const SORTS: Record<MonitorSort, string> = {
  status: 'Status (down first)',
  name: 'Name',
  last_checked: 'Last check',
  type: 'Type',
};
type Sort = MonitorSort;

/** Filters, search and sort live in the URL: a view can be bookmarked and shared. */
function useListParams() {
  const [params, setParams] = useSearchParams();
  const filters: MonitorFilters = {};
  const q = params.get('q');
  if (q) filters.q = q;
  const status = params.get('status');
  if (status && (STATUSES as readonly string[]).includes(status)) filters.status = status as MonitorFilters['status'];
  const type = params.get('type');
  if (type && (TYPES as readonly string[]).includes(type)) filters.type = type as MonitorFilters['type'];
  const tag = params.get('tag');
  if (tag) filters.tag = tag;
  const environment = params.get('environment');
  if (environment) filters.environment = environment;
  const sortParam = params.get('sort');
  const sort: Sort = sortParam && sortParam in SORTS ? (sortParam as Sort) : 'status';
  const set = (name: string, value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(name, value);
    else next.delete(name);
    setParams(next, { replace: true });
  };
  return { filters, sort, set, raw: params };
}

export default function MonitorsPage() {
  const { session } = useSession();
  const allowed = can(session.role);
  const { filters, sort, set, raw } = useListParams();
  const [search, setSearch] = useState(filters.q ?? '');
  useEffect(() => {
    const t = setTimeout(() => {
      if (search !== (filters.q ?? '')) set('q', search);
    }, 300);
    return () => clearTimeout(t);
  });
  const list = useMonitorPages(filters, sort);
  // The visible rows' bars and sparklines: one batch of requests per screenful, not two requests per row.
  const api = useApi();
  const [rowStats] = useState(() => new RowStatsBatcher(api));
  const rows = list.rows;
  const names = useMemo(() => new Map(rows.map((m) => [m.id, m.name])), [rows]);
  // Either some rows picked one by one, or every monitor matching the filters (loaded or not: the bulk action
  // reads their ids when it runs). A change of filters or sort starts again.
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [allMatching, setAllMatching] = useState(false);
  const viewKey = `${raw.toString()}`;
  useEffect(() => {
    setSelected(new Set());
    setAllMatching(false);
  }, [viewKey]);
  const selectedMonitors = useMemo(() => rows.filter((m) => selected.has(m.id)), [rows, selected]);
  const toggle = useCallback(
    (id: string) => {
      if (allMatching) {
        // Leaving "all matching": the loaded rows but this one stay selected.
        setAllMatching(false);
        setSelected(new Set(rows.map((m) => m.id).filter((x) => x !== id)));
        return;
      }
      setSelected((current) => {
        const next = new Set(current);
        if (next.has(id)) next.delete(id);
        else next.add(id);
        return next;
      });
    },
    [allMatching, rows],
  );
  const clearSelection = useCallback(() => {
    setSelected(new Set());
    setAllMatching(false);
  }, []);

  return (
    <RowStatsContext value={rowStats}>
      <PageHeader
        title="Monitors"
        actions={
          allowed.write && (
            <>
              <Link className="button" to="/imports">
                Import
              </Link>
              <Link className="button primary" to="/monitors/new">
                New monitor
              </Link>
            </>
          )
        }
      />
      <form className="filters" role="search" aria-label="Filter monitors" onSubmit={(e) => e.preventDefault()}>
        <label>
          Search
          <input
            type="search"
            value={search}
            placeholder="name or target"
            onChange={(e) => setSearch(e.target.value)}
          />
        </label>
        <label>
          Status
          <select value={filters.status ?? ''} onChange={(e) => set('status', e.target.value)}>
            <option value="">Any</option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
        <label>
          Type
          <select value={filters.type ?? ''} onChange={(e) => set('type', e.target.value)}>
            <option value="">Any</option>
            {TYPES.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </label>
        <label>
          Tag
          <input value={raw.get('tag') ?? ''} onChange={(e) => set('tag', e.target.value)} size={10} />
        </label>
        <label>
          Environment
          <input value={raw.get('environment') ?? ''} onChange={(e) => set('environment', e.target.value)} size={10} />
        </label>
        <label>
          Sort
          <select value={sort} onChange={(e) => set('sort', e.target.value === 'status' ? '' : e.target.value)}>
            {Object.entries(SORTS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
      </form>
      <p className="muted" role="status" aria-live="polite">
        {list.isPending ? 'Loading monitors…' : plural(list.total, 'monitor')}
      </p>
      {list.isError && <ErrorState message={list.error.message} onRetry={() => void list.refetch()} />}
      {allowed.write && (allMatching || selected.size > 0) && (
        <BulkBar
          selected={allMatching ? null : selectedMonitors}
          matching={allMatching ? { filters, total: list.total } : null}
          canDelete={allowed.write}
          onDone={clearSelection}
        />
      )}
      {!list.isPending && list.total === 0 && !list.isError && (
        <EmptyState
          icon={Object.keys(filters).length ? '∅' : '＋'}
          title={`No monitors${Object.keys(filters).length ? ' match these filters' : ' yet'}.`}
        >
          {allowed.write && (
            <p>
              <Link to="/monitors/new">Create one with just a URL.</Link>
            </p>
          )}
        </EmptyState>
      )}
      {list.total > 0 && (
        <MonitorTable
          monitors={rows}
          total={list.total}
          onNear={list.loadNear}
          names={names}
          selectable={allowed.write}
          selected={selected}
          allSelected={allMatching}
          onToggle={toggle}
          onToggleAll={() => {
            setSelected(new Set());
            setAllMatching(!allMatching);
          }}
        />
      )}
    </RowStatsContext>
  );
}

const ROW_HEIGHT = 52;

/** "blocked by Router, Core switch" (DECISIONS §17): the parents that hold a down monitor's alerts back. */
function blockedByText(m: MonitorSummary, names: ReadonlyMap<string, string>): string | null {
  const ids = m.blocked_by ?? [];
  if (ids.length === 0) return null;
  return `blocked by ${ids.map((id) => names.get(id) ?? id).join(', ')}`;
}

function MonitorTable(props: {
  /** The rows loaded so far, in order. */
  monitors: MonitorSummary[];
  /** All the rows matching: those not loaded yet are drawn as placeholders until their page arrives. */
  total: number;
  /** Told the last row index drawn, so the next page is asked for before it is needed. */
  onNear: (index: number) => void;
  /** Names of the loaded monitors, for the parents a row is blocked by. */
  names: ReadonlyMap<string, string>;
  selectable: boolean;
  selected: Set<string>;
  allSelected: boolean;
  onToggle: (id: string) => void;
  onToggleAll: () => void;
}) {
  const [offset, setOffset] = useState(0);
  const [body, setBody] = useState<HTMLTableSectionElement | null>(null);
  useEffect(() => {
    if (body) setOffset(body.getBoundingClientRect().top + window.scrollY);
  }, [body]);
  // Only the rows near the viewport are in the DOM (10,000 monitors stay smooth).
  const virtualizer = useWindowVirtualizer({
    count: props.total,
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
    scrollMargin: offset,
  });
  const items = virtualizer.getVirtualItems();
  const lastIndex = items.length ? items[items.length - 1]!.index : 0;
  const { onNear } = props;
  useEffect(() => onNear(lastIndex), [onNear, lastIndex]);
  const before = items.length ? items[0]!.start - offset : 0;
  const after = items.length ? virtualizer.getTotalSize() - (items[items.length - 1]!.end - offset) : 0;
  return (
    <div className="table-wrap">
      <table className="monitors" aria-rowcount={props.total + 1}>
        <thead>
          <tr aria-rowindex={1}>
            {props.selectable && (
              <th scope="col" className="check">
                <input
                  type="checkbox"
                  aria-label="Select all monitors"
                  checked={props.allSelected}
                  onChange={props.onToggleAll}
                />
              </th>
            )}
            <th scope="col" className="col-status">
              Status
            </th>
            <th scope="col" className="col-name">
              Monitor
            </th>
            <th scope="col" className="hide-narrow">
              Tags
            </th>
            <th scope="col" className="col-bar">
              90 days
            </th>
            <th scope="col" className="col-uptime">
              24 h
            </th>
            <th scope="col" className="hide-narrow col-p95">
              p95 (24 h)
            </th>
            <th scope="col" className="hide-narrow">
              Last check
            </th>
          </tr>
        </thead>
        <tbody ref={setBody}>
          {before > 0 && (
            <tr aria-hidden="true" className="spacer">
              <td style={{ height: before }} />
            </tr>
          )}
          {items.map((item) => {
            const m = props.monitors[item.index];
            if (!m)
              return <PendingRow key={`pending-${item.index}`} index={item.index} selectable={props.selectable} />;
            return (
              <MonitorRow
                key={m.id}
                index={item.index}
                monitor={m}
                blockedBy={blockedByText(m, props.names)}
                selectable={props.selectable}
                selected={props.allSelected || props.selected.has(m.id)}
                onToggle={props.onToggle}
                scrolling={virtualizer.isScrolling}
              />
            );
          })}
          {after > 0 && (
            <tr aria-hidden="true" className="spacer">
              <td style={{ height: after }} />
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}

/** A row whose page has not arrived yet: its place kept, nothing to read. */
function PendingRow(props: { index: number; selectable: boolean }) {
  return (
    <tr aria-rowindex={props.index + 2} aria-busy="true" className="pending-row" style={{ height: ROW_HEIGHT }}>
      <td colSpan={props.selectable ? 8 : 7}>
        <span className="skeleton" />
      </td>
    </tr>
  );
}

// Scrolling mounts only the rows coming into view: the others keep their props and are not rendered again.
const MonitorRow = memo(function MonitorRow(props: {
  index: number;
  monitor: MonitorSummary;
  /** "blocked by …" while a parent holds its alerts back; null otherwise. */
  blockedBy: string | null;
  selectable: boolean;
  selected: boolean;
  onToggle: (id: string) => void;
  scrolling: boolean;
}) {
  const m = props.monitor;
  // Rows only flying past while scrolling fetch nothing: the history is asked for once scrolling has stopped and
  // the row has been on screen for 250 ms.
  const [settled, setSettled] = useState(false);
  useEffect(() => {
    const t = setTimeout(() => setSettled(true), 250);
    return () => clearTimeout(t);
  }, []);
  const stats = useRowStats(m.id, settled && !props.scrolling);
  const days = stats.data ? lastDays(stats.data.daily, 90) : [];
  const withData = days.filter((d) => d.uptime !== null);
  const p95 = stats.data?.hourly.map((b) => b.p95_ms) ?? [];
  const lastP95 = [...p95].reverse().find((v) => v !== null);
  return (
    <tr aria-rowindex={props.index + 2} style={{ height: ROW_HEIGHT }}>
      {props.selectable && (
        <td className="check">
          <input
            type="checkbox"
            aria-label={`Select ${m.name}`}
            checked={props.selected}
            onChange={() => props.onToggle(m.id)}
          />
        </td>
      )}
      <td>
        <StatusBadge status={m.status} />
        {props.blockedBy && (
          <span className="muted small blocked-by" title="Its alerts wait until these recover (docs/dependencies.md)">
            {props.blockedBy}
          </span>
        )}
      </td>
      <td>
        <div className="name-cell">
          <Link to={`/monitors/${m.id}`}>{m.name}</Link>
          <span className="muted small">
            {m.type} · {m.environment} · <span className="target">{m.target}</span>
          </span>
        </div>
      </td>
      <td className="hide-narrow">
        {m.tags.map((t) => (
          <span key={t} className="tag">
            {t}
          </span>
        ))}
      </td>
      <td className="bar-cell col-bar">
        {stats.data ? (
          <UptimeBar
            days={days}
            label={`Last 90 days: ${plural(withData.length, 'day')} with checks, ${
              withData.filter((d) => (d.uptime ?? 100) < 99.9).length
            } below 99.9 %`}
          />
        ) : (
          <span className="muted">…</span>
        )}
      </td>
      <td>{stats.data ? percent(stats.data.uptime24h) : '…'}</td>
      <td className="hide-narrow">
        {stats.data && (
          <Sparkline
            values={p95}
            label={
              lastP95 === undefined ? 'No latency in the last 24 h' : `p95 latency, latest ${Math.round(lastP95)} ms`
            }
          />
        )}
      </td>
      <td className="hide-narrow">
        <time dateTime={m.last_checked_at ?? undefined}>{relativeTime(m.last_checked_at)}</time>
      </td>
    </tr>
  );
});
