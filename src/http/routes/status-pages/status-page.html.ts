import type {
  PublicGroupView,
  OutageLevel,
  PublicDay,
  PublicIncidentView,
  PublicMaintenanceView,
  PublicMonitorStatus,
  PublicSlaView,
  PublicStatusView,
} from '../../../modules/status-pages/index.ts';
import { createHash } from 'node:crypto';
import { PAST_NOTICE_DAYS } from '../../../modules/status-pages/index.ts';
import { toIso } from '../../../platform/clock.ts';
import { createSafeMarkdown } from '../../../platform/markdown/safe-markdown.ts';
import { activeNoticesSection, NOTICES_CSS, pastNoticesSection } from './status-page.notices.html.ts';

/** Escapes text for HTML element content and double-quoted attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}

// Every status carries a symbol and a word: colour is never the only signal.
const LABEL: Record<PublicMonitorStatus, string> = {
  operational: '✓ Operational',
  degraded: '! Degraded',
  degraded_performance: '~ Degraded performance',
  paused: '‖ Paused',
  pending: '… Awaiting first check',
  maintenance: '⚒ Under maintenance',
};

const BANNER: Record<OutageLevel, { symbol: string; text: string }> = {
  none: { symbol: '✓', text: 'All systems operational' },
  partial: { symbol: '!', text: 'Partial outage' },
  major: { symbol: '✕', text: 'Major outage' },
};

const WINDOWS = [
  ['last_24_hours', '24 hours'],
  ['last_7_days', '7 days'],
  ['last_30_days', '30 days'],
  ['last_90_days', '90 days'],
] as const;

// Colours meet WCAG contrast in both schemes: text ≥ 4.5:1, bars and borders ≥ 3:1 against the page.
const CSS = `*{box-sizing:border-box}body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2328;background:#fff}
.wrap{max-width:56rem;margin:0 auto;padding:1rem}h1{font-size:1.5rem;margin:.5rem 0 1rem}
.banner{padding:.75rem 1rem;border-radius:.5rem;font-weight:600;color:#fff;margin:0}.banner.none{background:#1a7f37}.banner.partial{background:#9a4d00}.banner.major{background:#b91c1c}.banner.degraded_performance{background:#7a5200}
.banner small{display:block;font-weight:400}
h2{font-size:1.15rem;margin:1.75rem 0 .5rem}ul.plain{list-style:none;margin:0;padding:0}
.card{border:1px solid #8c959f;border-radius:.5rem;padding:.75rem 1rem;margin:.5rem 0}
.row{display:flex;flex-wrap:wrap;justify-content:space-between;gap:.25rem 1rem;align-items:baseline}h3{font-size:1rem;margin:0;overflow-wrap:anywhere}
.st{font-weight:600}.st.operational,.st.met{color:#1a7f37}.st.degraded,.st.open{color:#9a4d00}.st.degraded_performance{color:#7a5200}.st.missed{color:#b91c1c}.st.paused,.st.pending,.st.resolved,.st.nodata,.st.progress{color:#57606a}.st.maintenance{color:#0550ae}
ol.bars{display:flex;gap:1px;list-style:none;margin:.5rem 0 .25rem;padding:0;height:2rem}
ol.bars li{flex:1 1 0;min-width:1px;border-radius:1px;background:#8c959f;position:relative}
ol.bars li>span{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0,0,0,0);white-space:nowrap}
ol.bars li:hover>span{clip:auto;width:auto;height:auto;overflow:visible;bottom:calc(100% + 4px);left:50%;transform:translateX(-50%);background:#1f2328;color:#fff;padding:.2rem .45rem;border-radius:.25rem;font-size:.75rem;z-index:1}
ol.bars li:nth-child(-n+20)>span{left:0;transform:none}ol.bars li:nth-last-child(-n+20)>span{left:auto;right:0;transform:none}
ol.bars li.ok{background:#1a7f37}ol.bars li.minor{background:#4d8f1c}ol.bars li.partial{background:#b35900}ol.bars li.bad{background:#cf222e}ol.bars li.paused{background:repeating-linear-gradient(135deg,#8c959f 0 2px,#fff 2px 4px)}
ol.bars li.maintenance{background:#0550ae}ol.bars li.mnt{box-shadow:inset 0 .4rem 0 #0550ae}
.meta{display:flex;flex-wrap:wrap;justify-content:space-between;gap:0 1rem;font-size:.8rem;color:#57606a}
dl.up{display:grid;grid-template-columns:repeat(4,minmax(0,1fr));gap:.25rem;margin:.5rem 0 0;text-align:center}
dl.up div{border-top:1px solid #d0d7de;padding-top:.25rem}dl.up dt{font-size:.75rem;color:#57606a}dl.up dd{margin:0;font-weight:600;font-variant-numeric:tabular-nums}
table{border-collapse:collapse;width:100%;font-variant-numeric:tabular-nums}caption{text-align:left;font-size:.8rem;color:#57606a;padding-bottom:.25rem}
th,td{text-align:left;padding:.35rem .5rem;border-bottom:1px solid #d0d7de;vertical-align:top}th[scope=col]{font-size:.8rem;color:#57606a}
.legend{display:flex;flex-wrap:wrap;gap:.25rem 1rem;font-size:.8rem;color:#57606a;margin:.5rem 0 0;padding:0;list-style:none}
.legend i{display:inline-block;width:.75rem;height:.75rem;border-radius:2px;margin-right:.3rem;vertical-align:-1px}
.legend .ok{background:#1a7f37}.legend .minor{background:#4d8f1c}.legend .partial{background:#b35900}.legend .bad{background:#cf222e}.legend .none{background:#8c959f}.legend .paused{background:repeating-linear-gradient(135deg,#8c959f 0 2px,#fff 2px 4px)}.legend .maintenance{background:#0550ae}
.sr{position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0,0,0,0);white-space:nowrap;border:0}
details.group{margin:.75rem 0}details.group>summary{cursor:pointer;list-style-position:outside;margin-left:1.1rem;padding:.35rem 0}
details.group>summary>.row{display:inline-flex;width:calc(100% - .25rem);vertical-align:baseline}.gname{font-weight:600;overflow-wrap:anywhere}.count{font-weight:400;color:#57606a;font-size:.85rem}
details.group>ul,details.group>p{margin-left:.35rem;padding-left:.75rem;border-left:2px solid #d0d7de}.others{margin:1rem 0 .25rem;padding:.35rem 0}form.unlock{display:grid;gap:.5rem;max-width:22rem}form.unlock input{font:inherit;padding:.45rem .6rem;border:1px solid #8c959f;border-radius:.375rem}
form.unlock button{font:inherit;padding:.45rem .9rem;border:0;border-radius:.375rem;background:#1f6feb;color:#fff;cursor:pointer;justify-self:start}.err{color:#b91c1c;font-weight:600}
form.sub{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center}form.sub input{font:inherit;padding:.35rem .5rem;min-width:16rem;border:1px solid #8c959f;border-radius:.25rem}form.sub button{font:inherit;padding:.35rem .75rem}
footer{margin:2rem 0 1rem;font-size:.8rem;color:#57606a}a{color:#0969da}
@media (max-width:40rem){.wrap{padding:.75rem}ol.bars{height:1.5rem;gap:0}ol.bars li:hover>span{white-space:normal;width:max-content;max-width:14rem}dl.up dt{font-size:.7rem}.card{padding:.6rem .75rem}
.sla thead{display:none}.sla tr{display:block;border-bottom:1px solid #d0d7de;padding:.25rem 0}.sla th,.sla td{display:block;border:0;padding:.1rem 0}.sla td[data-h]::before{content:attr(data-h) ": ";color:#57606a}}
@media (prefers-color-scheme:dark){body{background:#0d1117;color:#e6edf3}.card{border-color:#6e7681}th,td,dl.up div,.sla tr,details.group>ul,details.group>p{border-color:#30363d}
.count,.meta,footer,caption,th[scope=col],dl.up dt,.legend,.st.paused,.st.pending,.st.resolved,.st.nodata,.st.progress,.sla td[data-h]::before{color:#9198a1}
.st.maintenance{color:#79c0ff}.st.operational,.st.met{color:#3fb950}.st.degraded,.st.open{color:#f0883e}.st.degraded_performance{color:#d29922}.st.missed{color:#ff7b72}
.banner.none{background:#1a7f37}.banner.partial{background:#9a4d00}.banner.major{background:#b91c1c}
ol.bars li,.legend .none{background:#6e7681}ol.bars li.paused,.legend .paused{background:repeating-linear-gradient(135deg,#6e7681 0 2px,#0d1117 2px 4px)}a{color:#4493f8}.err{color:#ff7b72}form.unlock input{background:#0d1117;color:#e6edf3;border-color:#6e7681}ol.bars li:hover>span{background:#e6edf3;color:#0d1117}
ol.bars li.maintenance,.legend .maintenance{background:#58a6ff}ol.bars li.mnt{box-shadow:inset 0 .4rem 0 #58a6ff}}
${NOTICES_CSS}`;

/** A percentage as shown: cut (not rounded) to 2 decimals, so 99.999 % never reads as 100 %. */
export function percentText(v: number): string {
  if (v >= 100) return '100%';
  return `${(Math.floor(v * 100) / 100).toFixed(2)}%`;
}

/** A duration in words: "40 s", "45 min", "2 h 5 min", "3 d 4 h". */
export function durationText(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  const min = Math.round(s / 60);
  if (min < 60) return `${min} min`;
  const h = Math.floor(min / 60);
  if (h < 24) return min % 60 === 0 ? `${h} h` : `${h} h ${min % 60} min`;
  const d = Math.floor(h / 24);
  return h % 24 === 0 ? `${d} d` : `${d} d ${h % 24} h`;
}

/**
 * A time in the page's zone, to the minute, with the zone's abbreviation ("2026-05-10 12:00 CEST"; en-GB names
 * the European zones, others read "GMT+9"): minute precision, so two renders within a minute are the same bytes
 * (ETag). The `datetime` attribute stays UTC.
 */
export function when(ms: number, timeZone = 'UTC'): string {
  const iso = toIso(ms).slice(0, 16);
  return `<time datetime="${iso}Z">${escapeHtml(localTimeText(ms, timeZone))}</time>`;
}

export function localTimeText(ms: number, timeZone: string): string {
  if (timeZone === 'UTC') return `${toIso(ms).slice(0, 16).replace('T', ' ')} UTC`;
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZoneName: 'short',
  }).formatToParts(ms);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')} ${part('hour')}:${part('minute')} ${part('timeZoneName')}`;
}

/**
 * A day's bar: its uptime's colour; a day without monitored time is maintenance (a window excluded from the SLA held
 * it), paused or without data. A monitored day with some maintenance keeps its colour and gets the maintenance mark
 * (`mnt`, a band along the top) — its uptime is that of the time outside the window, as in the availability report.
 */
export function barClass(d: PublicDay): string {
  if (d.uptime_percent === null) {
    if (d.maintenance_seconds > 0 && d.maintenance_seconds >= d.paused_seconds) return 'maintenance';
    return d.paused_seconds > 0 ? 'paused' : 'none';
  }
  const mark = d.maintenance_seconds > 0 ? ' mnt' : '';
  if (d.uptime_percent >= 100) return `ok${mark}`;
  if (d.uptime_percent >= 99) return `minor${mark}`;
  if (d.uptime_percent >= 95) return `partial${mark}`;
  return `bad${mark}`;
}

export function barLabel(d: PublicDay): string {
  const maintenance = `${durationText(d.maintenance_seconds)} maintenance, not counted`;
  if (d.uptime_percent === null) {
    if (d.maintenance_seconds > 0 && d.maintenance_seconds >= d.paused_seconds) return `${d.day}: ${maintenance}`;
    return `${d.day}: ${d.paused_seconds > 0 ? 'paused, not monitored' : 'no data'}`;
  }
  const down = d.downtime_seconds > 0 ? `, ${durationText(d.downtime_seconds)} down` : '';
  const held = d.maintenance_seconds > 0 ? `, ${maintenance}` : '';
  return `${d.day}: ${percentText(d.uptime_percent)} uptime${down}${held}`;
}

function monitorCard(m: PublicStatusView['monitors'][number], days: number): string {
  const bars = m.days
    .map((d) => {
      // One text per day, read by screen readers and shown as a tooltip on hover (no title: 90 × 50 labels twice
      // would double the page).
      return `<li class="${barClass(d)}"><span>${escapeHtml(barLabel(d))}</span></li>`;
    })
    .join('');
  const windows = WINDOWS.map(
    ([key, label]) =>
      `<div><dt>${label}</dt><dd>${m.uptime[key] === null ? 'no data' : percentText(m.uptime[key])}</dd></div>`,
  ).join('');
  const name = escapeHtml(m.name);
  return (
    `<li class="card monitor"><div class="row"><h3>${name}</h3><span class="st ${m.status}">${LABEL[m.status]}</span></div>` +
    `<ol class="bars" aria-label="Daily uptime of ${name}, last ${days} days (UTC), oldest first">${bars}</ol>` +
    `<div class="meta" aria-hidden="true"><span>${days} days ago</span><span>Today</span></div>` +
    `<dl class="up" aria-label="Uptime of ${name}">${windows}</dl></li>`
  );
}

function incidentItem(i: PublicIncidentView, names: ReadonlyMap<string, string>, now: number, tz: string): string {
  const name = i.monitorId ? names.get(i.monitorId) : undefined;
  const state =
    i.resolvedAt !== null
      ? '<span class="st resolved">✓ Resolved</span>'
      : `<span class="st open">! ${i.status === 'acknowledged' ? 'Investigating' : 'Ongoing'}</span>`;
  const span =
    i.resolvedAt !== null
      ? `${when(i.startedAt, tz)} – ${when(i.resolvedAt, tz)} · lasted ${durationText((i.resolvedAt - i.startedAt) / 1000)}`
      : `since ${when(i.startedAt, tz)} · ${durationText((now - i.startedAt) / 1000)} so far`;
  return (
    `<li class="card incident"><div class="row"><h3>${escapeHtml(i.title)}</h3>${state}</div>` +
    `<div class="meta"><span>${name ? `${escapeHtml(name)} · ` : ''}${span}</span></div></li>`
  );
}

/** Share of the error budget used (not capped at 100 %: an overspent budget shows how far). */
const budgetUsed = (used: number | null) =>
  used === null ? '' : `${(Math.floor(used * 100) / 100).toFixed(2)}% of the error budget used`;

function slaSection(targets: readonly PublicSlaView[]): string {
  if (targets.length === 0) return '';
  const rows = targets
    .map((t) => {
      // The period is still running: it is neither met nor missed, only its budget's use is known.
      const state =
        t.status === 'no_data'
          ? '<span class="st nodata">– No data yet</span>'
          : t.errorBudgetExhausted === true
            ? `<span class="st missed">✕ Budget exhausted</span><br><small>${budgetUsed(t.errorBudgetUsedPercent)}</small>`
            : `<span class="st progress">In progress</span><br><small>${budgetUsed(t.errorBudgetUsedPercent)}</small>`;
      const period = `${toIso(t.from).slice(0, 10)} – ${toIso(t.to - 1).slice(0, 10)} (${t.period})`;
      return (
        `<tr><th scope="row">${escapeHtml(t.name)}</th><td data-h="Target">${t.targetPercent}%</td>` +
        `<td data-h="Achieved">${t.achievedPercent === null ? 'no data' : percentText(t.achievedPercent)}</td>` +
        `<td data-h="Period">${period}</td><td data-h="Status">${state}</td></tr>`
      );
    })
    .join('');
  return (
    `<section aria-labelledby="sla-h"><h2 id="sla-h">Service level targets</h2><table class="sla">` +
    `<caption>Availability so far in the current period (UTC), time-based, paused time excluded</caption>` +
    `<thead><tr><th scope="col">Target</th><th scope="col">Goal</th><th scope="col">Achieved</th><th scope="col">Period</th><th scope="col">Status</th></tr></thead>` +
    `<tbody>${rows}</tbody></table></section>`
  );
}

const LEGEND =
  '<ul class="legend" aria-label="Bar colours"><li><i class="ok"></i>100%</li><li><i class="minor"></i>99–99.99%</li>' +
  '<li><i class="partial"></i>95–99%</li><li><i class="bad"></i>below 95%</li><li><i class="paused"></i>paused</li>' +
  '<li><i class="maintenance"></i>maintenance (not counted)</li><li><i class="none"></i>no data</li></ul>';

/** Maintenance in progress and announced ahead (DECISIONS §16), with the systems each covers. */
function maintenanceSection(
  items: readonly PublicMaintenanceView[],
  names: ReadonlyMap<string, string>,
  tz: string,
): string {
  if (items.length === 0) return '';
  const item = (w: PublicMaintenanceView) => {
    const state = w.inProgress ? 'In progress' : 'Scheduled';
    const systems = w.monitorIds.map((id) => names.get(id)).filter((n): n is string => n !== undefined);
    return (
      `<li class="card maintenance"><div class="row"><h3>${escapeHtml(w.name)}</h3>` +
      `<span class="st maintenance">${state}</span></div>` +
      `<p class="meta">${when(w.startsAt, tz)} – ${when(w.endsAt, tz)}</p>` +
      (w.description ? `<p>${escapeHtml(w.description)}</p>` : '') +
      (systems.length > 0 ? `<p class="meta">Affects: ${systems.map(escapeHtml).join(', ')}</p>` : '') +
      '</li>'
    );
  };
  return (
    `<section aria-labelledby="mnt-h"><h2 id="mnt-h">Maintenance</h2>` +
    `<ul class="plain">${items.map(item).join('')}</ul></section>`
  );
}

/** A group as a disclosure (no script): the header tells its worst state, open unless the page folds it. */
function groupSection(group: PublicGroupView, cards: ReadonlyMap<string, string>): string {
  const count = `${group.monitorIds.length} system${group.monitorIds.length === 1 ? '' : 's'}`;
  return (
    `<details class="group"${group.collapsed ? '' : ' open'}><summary><span class="row">` +
    `<span class="gname">${escapeHtml(group.name)} <span class="count">(${count})</span></span>` +
    `<span class="st ${group.status}">${LABEL[group.status]}</span></span></summary>` +
    (group.monitorIds.length === 0
      ? '<p class="meta">No systems in this group.</p>'
      : `<ul class="plain">${group.monitorIds.map((id) => cards.get(id) ?? '').join('')}</ul>`) +
    '</details>'
  );
}

function systemsSection(view: PublicStatusView): string {
  if (view.monitors.length === 0 && view.groups.length === 0) return '<p>No systems are listed on this page yet.</p>';
  const cards = new Map(view.monitors.map((m) => [m.id, monitorCard(m, view.days)]));
  const grouped = new Set(view.groups.flatMap((g) => g.monitorIds));
  const ungrouped = view.monitors.filter((m) => !grouped.has(m.id));
  return (
    view.groups.map((g) => groupSection(g, cards)).join('') +
    // After groups, the ungrouped ones are "Other systems" (not read as the last group's).
    (ungrouped.length > 0 && view.groups.length > 0 ? '<p class="gname others">Other systems</p>' : '') +
    (ungrouped.length > 0 ? `<ul class="plain">${ungrouped.map((m) => cards.get(m.id)).join('')}</ul>` : '') +
    LEGEND
  );
}

/** Where the page's own routes are: /status/{slug} (absolute, so they work at the root of a custom domain too). */
const pagePath = (slug: string) => `/status/${encodeURIComponent(slug)}`;

/** The subscribe form (a page with subscriptions on): a plain form post, no script. */
function subscribeSection(slug: string): string {
  return (
    `<section aria-labelledby="sub-h"><h2 id="sub-h">Get updates by email</h2>` +
    `<form class="sub" method="post" action="${escapeHtml(pagePath(slug))}/subscribe"><label for="sub-email">Email address</label>` +
    `<input id="sub-email" type="email" name="email" required maxlength="254" autocomplete="email">` +
    `<button type="submit">Subscribe</button></form>` +
    `<p class="meta">You will get a mail with a link to confirm. Every mail has a link to unsubscribe.</p></section>`
  );
}

export function renderStatusPage(view: PublicStatusView): string {
  const names = new Map(view.monitors.map((m) => [m.id, m.name]));
  const now = view.generatedAt;
  const tz = view.timezone;
  const degraded = view.monitors.filter((m) => m.status === 'degraded').length;
  const detail =
    degraded === 0
      ? ''
      : `<small>${degraded} of ${view.monitors.length} system${view.monitors.length === 1 ? '' : 's'} degraded</small>`;
  // Not an outage (DECISIONS §20): said in the banner only while nothing is down.
  const slow = view.monitors.filter((m) => m.status === 'degraded_performance').length;
  const banner =
    view.outage === 'none' && slow > 0 ? { symbol: '~', text: 'Degraded performance' } : BANNER[view.outage];
  const bannerClass = view.outage === 'none' && slow > 0 ? 'degraded_performance' : view.outage;
  const current =
    view.incidents.length === 0
      ? ''
      : `<section aria-labelledby="inc-h"><h2 id="inc-h">Current incidents</h2><ul class="plain">${view.incidents
          .map((i) => incidentItem(i, names, now, tz))
          .join('')}</ul></section>`;
  const past =
    `<section aria-labelledby="past-h"><h2 id="past-h">Past incidents (last ${view.days} days)</h2>` +
    (view.pastIncidents.length === 0
      ? `<p>No incidents in the last ${view.days} days.</p>`
      : `<ul class="plain">${view.pastIncidents.map((i) => incidentItem(i, names, now, tz)).join('')}</ul>` +
        (view.pastIncidentsTruncated
          ? `<p class="meta">The ${view.pastIncidents.length} most recent are shown.</p>`
          : '')) +
    '</section>';
  const noticeRendering = { md: createSafeMarkdown(), escape: escapeHtml, when: (at: number) => when(at, tz), names };
  const activeNotices = activeNoticesSection(view.notices.active, noticeRendering);
  const pastNotices = pastNoticesSection(view.notices.past, PAST_NOTICE_DAYS, noticeRendering);
  const systems = systemsSection(view);
  const json = `${pagePath(view.slug)}.json`;
  const feed = `${pagePath(view.slug)}/feed`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${escapeHtml(view.title)} status</title><meta name="description" content="Current status, uptime and incident history of ${escapeHtml(view.title)}.">
<link rel="alternate" type="application/json" href="${escapeHtml(json)}">
<link rel="alternate" type="application/atom+xml" title="${escapeHtml(view.title)} notices (Atom)" href="${escapeHtml(feed)}.atom">
<link rel="alternate" type="application/rss+xml" title="${escapeHtml(view.title)} notices (RSS)" href="${escapeHtml(feed)}.rss"><style>${CSS}</style></head>
<body><div class="wrap"><header><h1>${escapeHtml(view.title)}</h1>
<p class="banner ${bannerClass}" role="status">${banner.symbol} ${banner.text}${detail}</p></header>
<main>${activeNotices}${current}${maintenanceSection(view.maintenance, names, tz)}<section aria-labelledby="mon-h"><h2 id="mon-h">Systems</h2>${systems}</section>${slaSection(view.slaTargets)}${pastNotices}${past}${view.subscriptionsEnabled ? subscribeSection(view.slug) : ''}</main>
<footer><p>Updated ${when(now, tz)} · Times are ${escapeHtml(tz)} · Uptime is time-based: paused time is not counted · Days of the bars are UTC · <a href="${escapeHtml(json)}">JSON</a> · <a href="${escapeHtml(feed)}.atom">Atom</a> · <a href="${escapeHtml(feed)}.rss">RSS</a> · Powered by Tocsin</p></footer></div></body></html>`;
}

const NOT_FOUND_CSS =
  'body{margin:0;font:16px/1.5 system-ui,sans-serif;color:#1f2328;background:#fff}main{max-width:40rem;margin:3rem auto;padding:1rem}@media (prefers-color-scheme:dark){body{background:#0d1117;color:#e6edf3}}';

/** A CSP source for an inline style block: the page needs no 'unsafe-inline', only its own two style sheets. */
function styleHash(css: string): string {
  return `'sha256-${createHash('sha256').update(css, 'utf8').digest('base64')}'`;
}

const STYLE_SOURCES = `${styleHash(CSS)} ${styleHash(NOT_FOUND_CSS)}`;

/**
 * The page of a password-protected status page without a session: the form only (no title, no data of the page).
 * It posts to /status/{slug}/access, which answers with the page session or this page again with what went wrong.
 */
export function renderPasswordPage(slug: string, problem: string | null = null): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="color-scheme" content="light dark"><meta name="robots" content="noindex">
<title>Password required</title><style>${CSS}</style></head>
<body><div class="wrap"><main><h1>This status page is protected</h1><p>Enter the page's password to see it.</p>
${problem ? `<p class="err" role="alert">${escapeHtml(problem)}</p>` : ''}<form class="unlock" method="post" action="${escapeHtml(pagePath(slug))}/access">
<label for="pw">Password</label><input id="pw" name="password" type="password" autocomplete="current-password" required autofocus maxlength="200">
<button type="submit">Open the page</button></form></main>
<footer><p>Powered by Tocsin</p></footer></div></body></html>`;
}

/**
 * The security headers of every answer under /status/: the page loads nothing (no script, font, image or sheet
 * beyond its own inline styles, allowed by hash), submits forms to its own origin only (the password form), asks
 * for no device feature, and is framed by this app's preview only,
 * or by any site when the page's `allow_embedding` says so (X-Frame-Options then left out: it cannot say "any").
 */
export function statusPageSecurityHeaders(allowEmbedding: boolean): Record<string, string> {
  const csp = [
    "default-src 'none'",
    `style-src ${STYLE_SOURCES}`,
    "base-uri 'none'",
    // The password form (and a subscribe form) post to the page's own routes only.
    "form-action 'self'",
    `frame-ancestors ${allowEmbedding ? '*' : "'self'"}`,
  ].join('; ');
  return {
    'content-security-policy': csp,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cross-origin-opener-policy': 'same-origin',
    'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=()',
    ...(!allowEmbedding && { 'x-frame-options': 'SAMEORIGIN' }),
  };
}

/**
 * A short page of the subscription flow (subscribe answer, confirm, unsubscribe): a heading, text and optionally a
 * button that posts back to the same address (mail scanners that open links do not confirm or unsubscribe anyone).
 */
export function renderSubscriptionPage(input: {
  title: string;
  heading: string;
  text: string[];
  button?: { label: string; field?: { name: string; value: string } };
  backTo?: string;
}): string {
  const form = input.button
    ? `<form method="post">${
        input.button.field
          ? `<input type="hidden" name="${escapeHtml(input.button.field.name)}" value="${escapeHtml(input.button.field.value)}">`
          : ''
      }<button type="submit">${escapeHtml(input.button.label)}</button></form>`
    : '';
  const back = input.backTo ? `<p><a href="${escapeHtml(input.backTo)}">Back to the status page</a></p>` : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(input.title)}</title>
<style>${NOT_FOUND_CSS}</style></head>
<body><main><h1>${escapeHtml(input.heading)}</h1>${input.text.map((t) => `<p>${escapeHtml(t)}</p>`).join('')}${form}${back}</main></body></html>`;
}

export function renderNotFoundPage(): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Status page not found</title>
<style>${NOT_FOUND_CSS}</style></head>
<body><main><h1>Status page not found</h1><p>There is no public status page at this address.</p></main></body></html>`;
}
