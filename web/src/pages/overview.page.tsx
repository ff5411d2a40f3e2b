import { useState } from 'react';
import { Link } from 'react-router';
import type { Monitor } from '../api/monitors';
import {
  useMonitorCounts,
  useMonitorsShowing,
  useOpenIncidents,
  useOverviewTrend,
  type TrendPeriod,
} from '../api/overview';
import { plural, relativeTime } from '../lib/format';
import { CappedList, Card, CollapsibleSection, EmptyState, ErrorState, PageHeader, Stat, type Tone } from '../ui/kit';
import { IncidentBars, UptimeBars } from '../ui/overview-charts';
import { StatusBadge } from '../ui/status';

/** The summary strip: each state's count, a link to the list filtered to it. */
const STATES: { status: Exclude<Monitor['status'], 'pending'>; label: string; icon: string; tone: Tone }[] = [
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
  // The counts come from the server (one grouped query); only the monitors listed under "Needs attention" are read.
  const counts = useMonitorCounts();
  const byStatus = counts.data?.by_status;
  const total = counts.data?.total ?? 0;
  const downCount = byStatus?.down ?? 0;
  const degradedCount = byStatus?.degraded ?? 0;
  const downList = useMonitorsShowing('down', downCount > 0);
  const degradedList = useMonitorsShowing('degraded', degradedCount > 0);
  const open = useOpenIncidents();
  const [period, setPeriod] = useState<TrendPeriod>('24h');
  const trend = useOverviewTrend(period, total > 0);

  const down = downList.monitors;
  const degraded = degradedList.monitors;
  const incidents = open.data ?? [];
  const loaded = counts.isSuccess && open.isSuccess;
  const allClear = loaded && downCount === 0 && degradedCount === 0 && incidents.length === 0;
  const listsPending = (downCount > 0 && downList.isPending) || (degradedCount > 0 && degradedList.isPending);
  const listError = downList.error ?? degradedList.error;

  return (
    <>
      <PageHeader
        title="Overview"
        lead={
          loaded ? (
            <Verdict down={downCount} degraded={degradedCount} open={incidents.length} total={total} />
          ) : undefined
        }
      />
      {counts.isError && <ErrorState message={counts.error.message} onRetry={() => void counts.refetch()} />}
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
              tone={(byStatus?.[s.status] ?? 0) > 0 ? s.tone : 'neutral'}
              value={counts.isPending ? 'Loading…' : (byStatus?.[s.status] ?? 0)}
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
          {(counts.isPending || open.isPending || listsPending) && <p role="status">Loading…</p>}
          {open.isError && <ErrorState message={open.error.message} onRetry={() => void open.refetch()} />}
          {listError && (
            <ErrorState
              message={listError.message}
              onRetry={() => {
                void downList.refetch();
                void degradedList.refetch();
              }}
            />
          )}
          {allClear && (
            <EmptyState icon="✔" title="All clear" tone="up">
              <p>
                No monitor is down or degraded and no incident is open.{' '}
                {total === 0 && <Link to="/monitors/new">Add your first monitor</Link>}
              </p>
            </EmptyState>
          )}
          {down.length > 0 && (
            <CollapsibleSection title="Down monitors" tone="down" count={downCount} testId="down">
              <CappedList
                items={down}
                cap={CAP}
                label="down monitors"
                total={downCount}
                allTo="/monitors?status=down"
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
            <CollapsibleSection title="Degraded monitors" tone="degraded" count={degradedCount} testId="degraded">
              <CappedList
                items={degraded}
                cap={CAP}
                label="degraded monitors"
                total={degradedCount}
                allTo="/monitors?status=degraded"
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
          {(counts.isPending || (total > 0 && trend.isPending)) && !trend.isError && <p role="status">Loading…</p>}
          {trend.isError && <ErrorState message={trend.error.message} onRetry={() => void trend.refetch()} />}
          {counts.isSuccess && total === 0 && (
            <EmptyState icon="∅" title="No data to chart">
              <p>Charts fill in once monitors have run checks.</p>
            </EmptyState>
          )}
          {trend.data && total > 0 && (
            <div className="trend-charts">
              <UptimeBars period={trend.data.period} buckets={trend.data.buckets} />
              <IncidentBars period={trend.data.period} buckets={trend.data.buckets} />
            </div>
          )}
        </Card>
      </div>
    </>
  );
}
