import { Link } from 'react-router';
import { REPORTS, type ReportKind } from '../ui/report-frame';

/** The reports hub: the six reports, SLA targets, custom and scheduled reports, each with what it tells. */
export default function ReportsPage() {
  return (
    <>
      <h1>Reports</h1>
      <p className="muted">
        Every report takes a period (a preset or your own range), a time zone for its days, and optionally some monitors
        or tags; each is a page with its own link and downloads as JSON, CSV and PDF.
      </p>
      <section aria-labelledby="six">
        <h2 id="six">Reports</h2>
        <ul className="plain report-hub">
          {(Object.keys(REPORTS) as ReportKind[]).map((k) => (
            <li key={k} className="card">
              <Link to={`/reports/${k}`}>{REPORTS[k].title}</Link>
              <p className="muted small">{REPORTS[k].blurb}</p>
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="more">
        <h2 id="more">Targets, your own reports and delivery</h2>
        <ul className="plain report-hub">
          <li className="card">
            <Link to="/sla-targets">SLA targets</Link>
            <p className="muted small">
              The availability you promise for a set of monitors per day, week, month or quarter, and the downtime it
              allows (the error budget); the SLA report follows them.
            </p>
          </li>
          <li className="card">
            <Link to="/custom-reports">Custom reports</Link>
            <p className="muted small">A page of your own: several reports over chosen monitors in one document.</p>
          </li>
          <li className="card">
            <Link to="/scheduled-reports">Scheduled reports</Link>
            <p className="muted small">
              A report delivered by email, chat or webhook every day, week, month or quarter at a local time.
            </p>
          </li>
        </ul>
      </section>
    </>
  );
}
