import type { NoticeImpact, NoticeStatus, PublicNoticeView } from '../../../modules/status-pages/index.ts';
import type { SafeMarkdown } from '../../../platform/markdown/safe-markdown.ts';

/** The notices' part of the page's one inline style sheet (allowed by its hash in the CSP). */
export const NOTICES_CSS = `.notice{border-left-width:.35rem}.notice.critical{border-left-color:#b91c1c}.notice.major{border-left-color:#cf222e}.notice.minor{border-left-color:#b35900}.notice.none{border-left-color:#0550ae}
ol.updates{list-style:none;margin:.5rem 0 0;padding:0}ol.updates>li{border-top:1px solid #d0d7de;padding:.4rem 0}ol.updates>li:first-child{border-top:0}
.md{overflow-wrap:anywhere}.md>:first-child{margin-top:0}.md>:last-child{margin-bottom:0}.md p{margin:.35rem 0}.md pre{overflow-x:auto;background:#f6f8fa;padding:.5rem;border-radius:.25rem}.md code{font-size:.9em}
details.pm{margin-top:.5rem}details.pm summary{cursor:pointer;font-weight:600}
@media (prefers-color-scheme:dark){ol.updates>li{border-color:#30363d}.md pre{background:#161b22}}`;

// Every impact and status carries a word, never colour alone.
const IMPACT_TEXT: Record<NoticeImpact, string> = {
  critical: '✕ Critical impact',
  major: '! Major impact',
  minor: '! Minor impact',
  none: 'No impact',
};
const KIND_TEXT = { incident: 'Incident', maintenance: 'Maintenance', info: 'Information' } as const;
const STATUS_TEXT: Record<NoticeStatus, string> = {
  investigating: 'Investigating',
  identified: 'Identified',
  monitoring: 'Monitoring',
  resolved: '✓ Resolved',
};

export interface NoticeRendering {
  md: SafeMarkdown;
  escape: (text: string) => string;
  when: (ms: number) => string;
  /** Names of the page's monitors by id. */
  names: ReadonlyMap<string, string>;
}

function noticeItem(n: PublicNoticeView, r: NoticeRendering): string {
  const state = n.status
    ? `<span class="st ${n.status === 'resolved' ? 'resolved' : 'open'}">${STATUS_TEXT[n.status]}</span>`
    : '<span class="st maintenance">Ongoing</span>';
  const affected = n.affectedMonitorIds.map((id) => r.names.get(id)).filter((x): x is string => x !== undefined);
  const updates = n.updates
    .map(
      (u) =>
        `<li><p class="meta"><span>${u.status ? `<strong>${STATUS_TEXT[u.status]}</strong> · ` : ''}${r.when(u.createdAt)}</span></p>` +
        `<div class="md">${r.md.render(u.body)}</div></li>`,
    )
    .join('');
  const postmortem = n.postmortem
    ? `<details class="pm"><summary>Postmortem</summary><div class="md">${r.md.render(n.postmortem)}</div></details>`
    : '';
  const span =
    n.resolvedAt !== null ? `${r.when(n.publishedAt)} – ${r.when(n.resolvedAt)}` : `since ${r.when(n.publishedAt)}`;
  return (
    `<li class="card notice ${n.impact}" id="${n.id}"><div class="row"><h3>${r.escape(n.title)}</h3>${state}</div>` +
    `<p class="meta"><span>${KIND_TEXT[n.kind]} · ${IMPACT_TEXT[n.impact]}${
      affected.length > 0 ? ` · Affects: ${affected.map(r.escape).join(', ')}` : ''
    }</span><span>${span}</span></p>` +
    (updates ? `<ol class="updates" aria-label="Updates, newest first">${updates}</ol>` : '') +
    postmortem +
    '</li>'
  );
}

/** Open notices, most severe first: at the top of the page. Empty when there are none. */
export function activeNoticesSection(notices: readonly PublicNoticeView[], r: NoticeRendering): string {
  if (notices.length === 0) return '';
  return (
    `<section aria-labelledby="ntc-h"><h2 id="ntc-h">Current notices</h2>` +
    `<ul class="plain">${notices.map((n) => noticeItem(n, r)).join('')}</ul></section>`
  );
}

/** Notices resolved lately, newest first, with their updates and postmortems. Empty when there are none. */
export function pastNoticesSection(notices: readonly PublicNoticeView[], days: number, r: NoticeRendering): string {
  if (notices.length === 0) return '';
  return (
    `<section aria-labelledby="pntc-h"><h2 id="pntc-h">Past notices (last ${days} days)</h2>` +
    `<ul class="plain">${notices.map((n) => noticeItem(n, r)).join('')}</ul></section>`
  );
}
