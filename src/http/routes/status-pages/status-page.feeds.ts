import type { PublicNoticeView } from '../../../modules/status-pages/index.ts';
import { toIso } from '../../../platform/clock.ts';
import type { SafeMarkdown } from '../../../platform/markdown/safe-markdown.ts';

/** What both feeds are made of: the page and its published notices, the latest activity first. */
export interface NoticeFeed {
  pageId: string;
  title: string;
  /** The public page's address; the feeds sit beside it. */
  pageUrl: string;
  /** For tag: URIs (RFC 4151), which must never change: the public address's host and the page's creation day. */
  host: string;
  pageCreatedAt: number;
  /** When the feed last changed (the newest notice's activity, or the page's creation). */
  updatedAt: number;
  notices: PublicNoticeView[];
}

// XML 1.0 allows no control characters but tab, line feed and carriage return, not even escaped: they are dropped.
// eslint-disable-next-line no-control-regex -- exactly those characters are what must go
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g;

/** Text for XML element content and attribute values. */
export function escapeXml(value: string): string {
  return value
    .replace(NOT_XML, '')
    .replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);
}

const STATUS_TEXT: Record<string, string> = {
  investigating: 'Investigating',
  identified: 'Identified',
  monitoring: 'Monitoring',
  resolved: 'Resolved',
};

/** The notice's HTML for a feed reader: its updates newest first, then the postmortem (Markdown rendered safely). */
function noticeHtml(n: PublicNoticeView, md: SafeMarkdown): string {
  const updates = n.updates
    .map(
      (u) =>
        `<p><strong>${u.status ? `${STATUS_TEXT[u.status]} – ` : ''}${toIso(u.createdAt).slice(0, 16).replace('T', ' ')} UTC</strong></p>` +
        md.render(u.body),
    )
    .join('');
  const postmortem = n.postmortem ? `<h3>Postmortem</h3>${md.render(n.postmortem)}` : '';
  return `<p>Impact: ${n.impact}</p>${updates}${postmortem}`;
}

const day = (ms: number) => toIso(ms).slice(0, 10);
const noticeTag = (f: NoticeFeed, n: PublicNoticeView) => `tag:${f.host},${day(n.publishedAt)}:tocsin/notice/${n.id}`;

/** Atom (RFC 4287). */
export function renderAtomFeed(f: NoticeFeed, md: SafeMarkdown): string {
  const entries = f.notices
    .map(
      (n) =>
        `<entry><id>${escapeXml(noticeTag(f, n))}</id><title type="text">${escapeXml(n.title)}</title>` +
        `<updated>${toIso(n.updatedAt)}</updated><published>${toIso(n.publishedAt)}</published>` +
        `<link rel="alternate" type="text/html" href="${escapeXml(`${f.pageUrl}#${n.id}`)}"/>` +
        `<category term="${n.kind}"/><category term="impact:${n.impact}"/>` +
        `<content type="html">${escapeXml(noticeHtml(n, md))}</content></entry>`,
    )
    .join('\n');
  return (
    `<?xml version="1.0" encoding="utf-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom">` +
    `<id>${escapeXml(`tag:${f.host},${day(f.pageCreatedAt)}:tocsin/status-page/${f.pageId}`)}</id>` +
    `<title type="text">${escapeXml(`${f.title} status`)}</title><updated>${toIso(f.updatedAt)}</updated>` +
    `<link rel="alternate" type="text/html" href="${escapeXml(f.pageUrl)}"/>` +
    `<link rel="self" type="application/atom+xml" href="${escapeXml(`${f.pageUrl}/feed.atom`)}"/>` +
    `<author><name>${escapeXml(f.title)}</name></author><generator>Tocsin</generator>\n${entries}\n</feed>\n`
  );
}

/** RSS 2.0. */
export function renderRssFeed(f: NoticeFeed, md: SafeMarkdown): string {
  const rfc822 = (ms: number) => new Date(ms).toUTCString();
  const items = f.notices
    .map(
      (n) =>
        `<item><title>${escapeXml(n.title)}</title><link>${escapeXml(`${f.pageUrl}#${n.id}`)}</link>` +
        `<guid isPermaLink="false">${escapeXml(noticeTag(f, n))}</guid><pubDate>${rfc822(n.updatedAt)}</pubDate>` +
        `<category>${n.kind}</category><description>${escapeXml(noticeHtml(n, md))}</description></item>`,
    )
    .join('\n');
  return (
    `<?xml version="1.0" encoding="utf-8"?>\n<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom"><channel>` +
    `<title>${escapeXml(`${f.title} status`)}</title><link>${escapeXml(f.pageUrl)}</link>` +
    `<description>${escapeXml(`Incidents, maintenance and notices of ${f.title}`)}</description>` +
    `<atom:link href="${escapeXml(`${f.pageUrl}/feed.rss`)}" rel="self" type="application/rss+xml"/>` +
    `<lastBuildDate>${rfc822(f.updatedAt)}</lastBuildDate><generator>Tocsin</generator>\n${items}\n</channel></rss>\n`
  );
}
