import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { useAllMonitors, type Monitor } from '../api/monitors';
import { useOpenIncidents, useOverviewTrend, type TrendPeriod } from '../api/overview';
import { plural, relativeTime } from '../lib/format';
import { CappedList, Card, CollapsibleSection, EmptyState, ErrorState, PageHeader, Stat, type Tone } from '../ui/kit';
import { IncidentBars, UptimeBars } from '../ui/overview-charts';
import { StatusBadge } from '../ui/status';

/** The summary strip: each state's count, a link to the list filtered to it. */
const STATES: { status: Monitor['status']; label: string; icon: string; tone: Tone }[] = [
  { status: 'down', label: 'Down', icon: '▼', tone: 'down' },
  { status: 'degraded', label: 'Degraded', icon: '◐', tone: 'degraded' },
  { status: 'up', label: 'Up', icon: '▲', tone: 'up' },
  { status: 'paused', label: 'Paused', icon: '❚❚', tone: 'paused' },
  { status: 'maintenance', label: 'In maintenance', icon: '⚒', tone: 'maintenance' },
];
/** How many rows an attention group shows before "Show all". */
const CAP = 5;

type Incident = NonNullable<ReturnType<typeof useOpenIncidents>['data']>[number];

function MonitorRow({ m }: { m: Monitor }) {
  return (
    <>
      <StatusBadge status={m.status} /> <Link to={`/monitors/${m.id}`}>{m.name}</Link>{' '}
      <span className="muted">since {relativeTime(m.status_changed_at)}</span>
    </>
  );
}

function IncidentRow({ i }: { i: Incident }) {
  return (
    <>
      <StatusBadge status={i.status} />{' '}
      <Link to={`/incidents/${i.id}`}>
        #{i.number} {i.title}
      </Link>{' '}
      <span className="muted">opened {relativeTime(i.opened_at)}</span>
    </>
  );
}

/** One line that answers "is everything fine?" before any figure is read. */
function Verdict(props: { down: number; degraded: number; open: number; total: number }) {
  const problems = [
    props.down > 0 ? `${plural(props.down, 'monitor')} down` : '',
    props.degraded > 0 ? `${props.degraded} degraded` : '',
    props.open > 0 ? `${props.open} open ${props.open === 1 ? 'incident' : 'incidents'}` : '',
  ].filter(Boolean);
  const tone = props.down > 0 || props.open > 0 ? 'down' : props.degraded > 0 ? 'degraded' : 'up';
  return (
    <p className={`verdict tone-${tone}`} data-verdict={tone}>
      <span aria-hidden="true">{tone === 'up' ? '✔' : '⚠'} </span>
      {props.total === 0
        ? 'No monitors yet.'
        : problems.length === 0
          ? `All ${plural(props.total, 'monitor')} fine: nothing needs attention.`
          : `Needs attention: ${problems.join(', ')}.`}
    </p>
  );
}

export default function OverviewPage() {
  const monitors = useAllMonitors({});
  const open = useOpenIncidents();
  const [period, setPeriod] = useState<TrendPeriod>('24h');
  const ids = useMemo(() => monitors.monitors.map((m) => m.id), [monitors.monitors]);
  const trend = useOverviewTrend(period, ids, monitors.complete);

  const byStatus = useMemo(() => {
    const out = new Map<string, Monitor[]>();
    for (const m of monitors.monitors) out.set(m.status, [...(out.get(m.status) ?? []), m]);
    // The longest outage first: the one most likely to matter.
    for (const list of out.values()) list.sort((a, b) => a.status_changed_at.localeCompare(b.status_changed_at));
    return out;
  }, [monitors.monitors]);
  const down = byStatus.get('down') ?? [];
  const degraded = byStatus.get('degraded') ?? [];
  const incidents = open.data ?? [];
  const loaded = monitors.isSuccess && open.isSuccess;
  const allClear = loaded && down.length === 0 && degraded.length === 0 && incidents.length === 0;

  return (
    <>
      <PageHeader
        title="Overview"
        lead={
          loaded ? (
            <Verdict
              down={down.length}
              degraded={degraded.length}
              open={incidents.length}
              total={monitors.monitors.length}
            />
          ) : undefined
        }
      />
      {monitors.isError && <ErrorState message={monitors.error.message} onRetry={() => void monitors.refetch()} />}
      <section aria-labelledby="counts">
        <h2 id="counts" className="visually-hidden">
          Monitors by state
        </h2>
        <div className="stat-strip">
          {STATES.map((s) => (
            <Stat
              key={s.status}
              label={s.label}
              icon={s.icon}
              tone={(byStatus.get(s.status)?.length ?? 0) > 0 ? s.tone : 'neutral'}
              value={monitors.isPending ? 'Loading…' : (byStatus.get(s.status)?.length ?? 0)}
              to={`/monitors?status=${s.status}`}
              testId={s.status}
            />
          ))}
          <Stat
            label="Open incidents"
            icon="!"
            tone={incidents.length > 0 ? 'down' : 'neutral'}
            value={open.isPending ? 'Loading…' : incidents.length}
            to="/incidents?status=opened"
            testId="incidents"
          />
        </div>
      </section>

      <div className="overview-grid">
        <Card title="Needs attention" className="attention">
          {(monitors.isPending || open.isPending) && <p role="status">Loading…</p>}
          {open.isError && <ErrorState message={open.error.message} onRetry={() => void open.refetch()} />}
          {allClear && (
            <EmptyState icon="✔" title="All clear" tone="up">
              <p>
                No monitor is down or degraded and no incident is open.{' '}
                {monitors.monitors.length === 0 && <Link to="/monitors/new">Add your first monitor</Link>}
              </p>
            </EmptyState>
          )}
          {down.length > 0 && (
            <CollapsibleSection title="Down monitors" tone="down" count={down.length} testId="down">
              <CappedList
                items={down}
                cap={CAP}
                label="down monitors"
                itemKey={(m) => m.id}
                render={(m) => <MonitorRow m={m} />}
              />
            </CollapsibleSection>
          )}
          {incidents.length > 0 && (
            <CollapsibleSection title="Open incidents" tone="down" count={incidents.length} testId="incidents">
              <CappedList
                items={incidents}
                cap={CAP}
                label="open incidents"
                itemKey={(i) => i.id}
                render={(i) => <IncidentRow i={i} />}
              />
            </CollapsibleSection>
          )}
          {degraded.length > 0 && (
            <CollapsibleSection title="Degraded monitors" tone="degraded" count={degraded.length} testId="degraded">
              <CappedList
                items={degraded}
                cap={CAP}
                label="degraded monitors"
                itemKey={(m) => m.id}
                render={(m) => <MonitorRow m={m} />}
              />
            </CollapsibleSection>
          )}
        </Card>

        <Card
          title="Trends"
          className="trends"
          actions={
            <div className="segmented" role="group" aria-label="Trend period">
              {(['24h', '7d'] as const).map((p) => (
                <button key={p} type="button" aria-pressed={period === p} onClick={() => setPeriod(p)}>
                  {p === '24h' ? 'Last 24 h' : 'Last 7 d'}
                </button>
              ))}
            </div>
          }
        >
          {(trend.isPending || !monitors.complete) && !trend.isError && <p role="status">Loading…</p>}
          {trend.isError && <ErrorState message={trend.error.message} onRetry={() => void trend.refetch()} />}
          {trend.data && monitors.monitors.length === 0 && (
            <EmptyState icon="∅" title="No data to chart">
              <p>Charts fill in once monitors have run checks.</p>
            </EmptyState>
          )}
          {trend.data && monitors.monitors.length > 0 && (
            <div className="trend-charts">
              <UptimeBars period={trend.data.period} buckets={trend.data.buckets} />
              <IncidentBars
                period={trend.data.period}
                buckets={trend.data.buckets}
                truncated={trend.data.incidentsTruncated}
              />
            </div>
          )}
        </Card>
      </div>
    </>
  );
}
