import type { DayUptime, PublicMonitorStatus, PublicStatusView } from '../../../modules/status-pages/index.ts';
import { toIso } from '../../../platform/clock.ts';

/** Escapes text for HTML element content and double-quoted attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}

const LABEL: Record<PublicMonitorStatus, string> = {
  operational: 'Operational',
  degraded: 'Degraded',
  paused: 'Paused',
  pending: 'Awaiting first check',
};

// Colours meet WCAG contrast: text ≥ 4.5:1 on white, bars ≥ 3:1 against the page.
const CSS = `*{box-sizing:border-box}body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2328;background:#fff}
.wrap{max-width:56rem;margin:0 auto;padding:1rem}header h1{font-size:1.5rem;margin:.5rem 0 1rem}
.banner{padding:.75rem 1rem;border-radius:.5rem;font-weight:600;color:#fff}.banner.operational{background:#1a7f37}.banner.degraded{background:#b35900}
h2{font-size:1.15rem;margin:1.5rem 0 .5rem}ul.plain{list-style:none;margin:0;padding:0}
.monitor,.incident{border:1px solid #d0d7de;border-radius:.5rem;padding:.75rem 1rem;margin:.5rem 0}
.row{display:flex;flex-wrap:wrap;justify-content:space-between;gap:.25rem 1rem;align-items:baseline}h3{font-size:1rem;margin:0}
.st{font-weight:600}.st.operational{color:#1a7f37}.st.degraded{color:#b35900}.st.paused,.st.pending{color:#57606a}
ol.bars{display:flex;gap:1px;list-style:none;margin:.5rem 0 .25rem;padding:0;height:2rem}
ol.bars li{flex:1 1 0;min-width:1px;border-radius:1px;background:#6e7781}
ol.bars li.ok{background:#1a7f37}ol.bars li.partial{background:#b35900}ol.bars li.bad{background:#cf222e}
.meta{display:flex;justify-content:space-between;font-size:.8rem;color:#57606a}
.sr{position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0,0,0,0);white-space:nowrap;border:0}
footer{margin:2rem 0 1rem;font-size:.8rem;color:#57606a}a{color:#0969da}
@media (max-width:40rem){.wrap{padding:.75rem}ol.bars{height:1.5rem;gap:0}}
@media (prefers-color-scheme:dark){body{background:#0d1117;color:#e6edf3}.monitor,.incident{border-color:#30363d}
.meta,footer,.st.paused,.st.pending{color:#9198a1}.st.operational{color:#3fb950}.st.degraded{color:#f0883e}ol.bars li{background:#6e7681}a{color:#4493f8}}`;

function barClass(d: DayUptime): string {
  if (d.uptime_percent === null) return 'none';
  if (d.uptime_percent >= 99.9) return 'ok';
  if (d.uptime_percent >= 95) return 'partial';
  return 'bad';
}

function barLabel(d: DayUptime): string {
  if (d.uptime_percent === null) return `${d.day}: no data`;
  const down = d.downtime_seconds > 0 ? `, ${Math.round(d.downtime_seconds / 60)} min down` : '';
  return `${d.day}: ${d.uptime_percent}% uptime${down}`;
}

function pct(v: number | null): string {
  return v === null ? 'no data' : `${v}% uptime`;
}

export function renderStatusPage(view: PublicStatusView): string {
  const monitorName = new Map(view.monitors.map((m) => [m.id, m.name]));
  const banner = view.status === 'degraded' ? 'Some systems are degraded' : 'All systems operational';
  const incidents =
    view.incidents.length === 0
      ? ''
      : `<section aria-labelledby="inc-h"><h2 id="inc-h">Current incidents</h2><ul class="plain">${view.incidents
          .map((i) => {
            const name = i.monitorId ? monitorName.get(i.monitorId) : undefined;
            return (
              `<li class="incident"><div class="row"><h3>${escapeHtml(i.title)}</h3><span class="st degraded">${i.status === 'acknowledged' ? 'Investigating' : 'Open'}</span></div>` +
              `<div class="meta"><span>${name ? `${escapeHtml(name)} · ` : ''}since <time datetime="${toIso(i.openedAt)}">${escapeHtml(toIso(i.openedAt).slice(0, 16).replace('T', ' '))} UTC</time></span></div></li>`
            );
          })
          .join('')}</ul></section>`;
  const monitors = view.monitors
    .map((m) => {
      const bars = m.days
        .map((d) => {
          const label = escapeHtml(barLabel(d));
          return `<li class="${barClass(d)}" title="${label}"><span class="sr">${label}</span></li>`;
        })
        .join('');
      return (
        `<li class="monitor"><div class="row"><h3>${escapeHtml(m.name)}</h3><span class="st ${m.status}">${LABEL[m.status]}</span></div>` +
        `<ol class="bars" aria-label="Daily uptime of ${escapeHtml(m.name)}, last ${view.days} days, oldest first">${bars}</ol>` +
        `<div class="meta"><span>${view.days} days ago</span><span>${escapeHtml(pct(m.uptimePercent))}</span><span>Today</span></div></li>`
      );
    })
    .join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(view.title)} status</title><meta name="description" content="Current status and ${view.days}-day uptime of ${escapeHtml(view.title)}.">
<link rel="alternate" type="application/json" href="${escapeHtml(view.slug)}.json"><style>${CSS}</style></head>
<body><div class="wrap"><header><h1>${escapeHtml(view.title)}</h1>
<p class="banner ${view.status}" role="status">${banner}</p></header>
<main>${incidents}<section aria-labelledby="mon-h"><h2 id="mon-h">Systems</h2>${
    view.monitors.length === 0 ? '<p>No systems are listed on this page yet.</p>' : `<ul class="plain">${monitors}</ul>`
  }</section></main>
<footer><p>Updated <time datetime="${toIso(view.generatedAt)}">${toIso(view.generatedAt).slice(0, 16).replace('T', ' ')} UTC</time> · Powered by Tocsin</p></footer></div></body></html>`;
}

export function renderNotFoundPage(): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Status page not found</title>
<style>body{margin:0;font:16px/1.5 system-ui,sans-serif;color:#1f2328;background:#fff}main{max-width:40rem;margin:3rem auto;padding:1rem}</style></head>
<body><main><h1>Status page not found</h1><p>There is no public status page at this address.</p></main></body></html>`;
}
