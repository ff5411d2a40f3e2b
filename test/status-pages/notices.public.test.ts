/**
 * Published notices on the public page (/status/{slug}, its JSON) and in its Atom and RSS feeds: open ones most
 * severe first with their update timelines, resolved ones with their post-mortems, drafts nowhere; Markdown rendered
 * without raw HTML, script or javascript: links. The feeds are read back by an independent parser (rss-parser, on
 * xml2js in strict mode) and checked by Python's XML parser for the elements RFC 4287 and RSS 2.0 require.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Parser from 'rss-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, ManualClock, type TestApp, type TestOrg } from '../support/app.ts';
import { testDialects } from '../support/databases.ts';
import { skipWithout } from '../support/services.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies

const HOSTILE_TITLE = 'Checkout <script>alert(1)</script> & "quotes"';
const HOSTILE_BODY =
  'Read <img src=x onerror=alert(1)> and [click](javascript:alert(1)) or [docs](https://docs.example.com/x?a=1&b=2)';

/** Python's own XML parser and date parsers over the feeds: what RFC 4287 and RSS 2.0 require of each element. */
const PYTHON_CHECK = String.raw`
import sys, json, datetime, email.utils
import xml.etree.ElementTree as ET
A = '{http://www.w3.org/2005/Atom}'
atom = ET.fromstring(open(sys.argv[1], 'rb').read())
rss = ET.fromstring(open(sys.argv[2], 'rb').read())
out = {'atom': {}, 'rss': {}}
def rfc3339(s):
    assert s.endswith('Z') and 'T' in s, s
    return datetime.datetime.fromisoformat(s.replace('Z', '+00:00')).isoformat()
assert atom.tag == A + 'feed'
for name in ('id', 'title', 'updated'):
    assert atom.find(A + name) is not None, 'feed ' + name
assert atom.find(A + 'author/' + A + 'name') is not None
self_links = [l for l in atom.findall(A + 'link') if l.get('rel') == 'self']
assert len(self_links) == 1
out['atom']['updated'] = rfc3339(atom.find(A + 'updated').text)
entries = []
for e in atom.findall(A + 'entry'):
    for name in ('id', 'title', 'updated'):
        assert e.find(A + name) is not None and e.find(A + name).text, 'entry ' + name
    content = e.find(A + 'content')
    assert content is not None and content.get('type') == 'html'
    entries.append({'id': e.find(A + 'id').text, 'title': e.find(A + 'title').text,
                    'updated': rfc3339(e.find(A + 'updated').text), 'published': rfc3339(e.find(A + 'published').text),
                    'content': content.text})
out['atom']['entries'] = entries
assert rss.tag == 'rss' and rss.get('version') == '2.0'
ch = rss.find('channel')
for name in ('title', 'link', 'description'):
    assert ch.find(name) is not None and ch.find(name).text, 'channel ' + name
items = []
for i in ch.findall('item'):
    assert i.find('title') is not None or i.find('description') is not None
    guid = i.find('guid')
    items.append({'guid': guid.text, 'permalink': guid.get('isPermaLink'), 'title': i.find('title').text,
                  'pubDate': email.utils.parsedate_to_datetime(i.find('pubDate').text).isoformat(),
                  'description': i.find('description').text})
out['rss']['items'] = items
out['rss']['lastBuildDate'] = email.utils.parsedate_to_datetime(ch.find('lastBuildDate').text).isoformat()
print(json.dumps(out))
`;

for (const dialect of testDialects()) {
  describe(`${dialect}: notices on the public page and in its feeds`, () => {
    let t: TestApp;
    let org: TestOrg;
    let clock: ManualClock;
    const slug = `public-notices-${dialect}`;
    const ids: Record<string, string> = {};

    async function call(method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown) {
      clock.advance(60_000);
      const res = await t.tocsin.app.inject({
        method,
        url,
        headers: bearer(org.apiKey),
        ...(body !== undefined && { payload: body as Json }),
      });
      expect(res.statusCode, res.body).toBeLessThan(300);
      return res.json() as Json;
    }
    const get = (url: string) => t.tocsin.app.inject({ method: 'GET', url });

    beforeAll(async () => {
      clock = new ManualClock('2026-05-10T10:00:00.000Z');
      t = await createTestApp({ dialect, clock });
      org = await t.createOrg();
      const api = await call('POST', '/api/v1/monitors', { name: 'API', target: 'https://example.com' });
      const web = await call('POST', '/api/v1/monitors', { name: 'Web <b>', target: 'https://example.com' });
      const elsewhere = await call('POST', '/api/v1/monitors', { name: 'Not on page', target: 'https://example.com' });
      const page = await call('POST', '/api/v1/status-pages', {
        slug,
        title: 'Acme & Co',
        monitor_ids: [api.id, web.id],
      });
      ids.page = page.id;
      const base = `/api/v1/status-pages/${page.id}/notices`;
      // Resolved 20 days ago: older than the page's past notices, still in the feeds.
      ids.old = (
        await call('POST', base, {
          kind: 'info',
          title: 'Old news',
          body: 'Long ago.',
          published: true,
          status: 'resolved',
        })
      ).id;
      clock.advance(19 * 86_400_000);
      ids.minor = (
        await call('POST', base, {
          kind: 'incident',
          title: 'Slow search',
          impact: 'minor',
          affected_monitor_ids: [web.id, elsewhere.id],
          body: 'Search is *slow*.',
          published: true,
        })
      ).id;
      ids.critical = (
        await call('POST', base, {
          kind: 'incident',
          title: HOSTILE_TITLE,
          impact: 'critical',
          affected_monitor_ids: [api.id],
          body: HOSTILE_BODY,
          published: true,
        })
      ).id;
      await call('POST', `${base}/${ids.critical}/updates`, { status: 'identified', body: 'Found the **cause**.' });
      ids.draft = (await call('POST', base, { kind: 'incident', title: 'Secret draft', body: 'Not yet.' })).id;
      ids.resolved = (
        await call('POST', base, {
          kind: 'maintenance',
          title: 'Database upgrade',
          body: 'Upgrading.',
          published: true,
        })
      ).id;
      await call('POST', `${base}/${ids.resolved}/updates`, { status: 'resolved', body: 'Done.' });
      await call('PATCH', `${base}/${ids.resolved}`, {
        postmortem: '## What happened\nIt went <b>fine</b>.',
        postmortem_published: true,
      });
      ids.hiddenPm = (
        await call('POST', base, {
          kind: 'incident',
          title: 'Brief blip',
          status: 'resolved',
          published: true,
          postmortem: 'Unpublished postmortem text',
        })
      ).id;
    });
    afterAll(async () => t.close());

    it('shows open notices most severe first with their timelines, past ones with post-mortems, no drafts', async () => {
      const res = await get(`/status/${slug}`);
      expect(res.statusCode).toBe(200);
      const html = res.body;
      const current = html.slice(html.indexOf('id="ntc-h"'), html.indexOf('</section>', html.indexOf('id="ntc-h"')));
      // Critical before minor, each with its id as anchor (the feeds link there).
      expect(current.indexOf(`id="${ids.critical}"`)).toBeGreaterThan(-1);
      expect(current.indexOf(`id="${ids.critical}"`)).toBeLessThan(current.indexOf(`id="${ids.minor}"`));
      expect(current).toContain('✕ Critical impact');
      expect(current).toContain('Affects: API');
      // Only the page's own monitors are named, escaped.
      expect(current).toContain('Affects: Web &lt;b&gt;');
      expect(html).not.toContain('Not on page');
      // The timeline, newest first, rendered Markdown.
      expect(current.indexOf('Found the <strong>cause</strong>.')).toBeLessThan(current.indexOf('Read &lt;img'));
      expect(current).toContain('<strong>Identified</strong>');
      expect(current).toContain('<em>slow</em>');
      // Hostile text stays text: no script, no raw HTML, no javascript: link; safe links work.
      expect(html).toContain('Checkout &lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;quotes&quot;');
      expect(html).not.toMatch(/<script/i);
      expect(html).not.toMatch(/<img/i);
      expect(html).not.toMatch(/href="javascript:/i);
      expect(html).toContain(
        '<a href="https://docs.example.com/x?a=1&amp;b=2" rel="nofollow noopener noreferrer">docs</a>',
      );
      expect(html).not.toContain('Secret draft');
      // Past: resolved lately, with the published post-mortem (its HTML as text); an unpublished one stays hidden.
      const past = html.slice(html.indexOf('id="pntc-h"'));
      expect(past).toContain('Database upgrade');
      expect(past).toContain('<h2>What happened</h2>');
      expect(past).toContain('It went &lt;b&gt;fine&lt;/b&gt;.');
      expect(past).toContain('Brief blip');
      expect(html).not.toContain('Unpublished postmortem text');
      expect(html).not.toContain('Old news');
      // The feeds are announced.
      expect(html).toContain(`<link rel="alternate" type="application/atom+xml"`);
      expect(html).toContain(`href="/status/${slug}/feed.rss"`);
      // The page's CSP still allows its one style sheet by hash, and nothing else.
      expect(res.headers['content-security-policy']).toMatch(/default-src 'none'/);
    });

    it('the JSON view lists the same notices with Markdown as written', async () => {
      const body = (await get(`/status/${slug}.json`)).json() as Json;
      expect(body.notices.map((n: Json) => n.id)).toEqual([ids.critical, ids.minor]);
      expect(body.notices[0]).toMatchObject({
        title: HOSTILE_TITLE,
        impact: 'critical',
        status: 'identified',
        updates: [{ body: 'Found the **cause**.' }, { body: HOSTILE_BODY }],
      });
      expect(body.past_notices.map((n: Json) => n.id)).toEqual([ids.hiddenPm, ids.resolved]);
      expect(body.past_notices[0].postmortem).toBeNull();
      expect(body.past_notices[1].postmortem).toBe('## What happened\nIt went <b>fine</b>.');
    });

    it('Atom and RSS feeds of the published notices parse with an independent parser', async () => {
      const atomRes = await get(`/status/${slug}/feed.atom`);
      expect(atomRes.statusCode).toBe(200);
      expect(atomRes.headers['content-type']).toBe('application/atom+xml; charset=utf-8');
      const rssRes = await get(`/status/${slug}/feed.rss`);
      expect(rssRes.headers['content-type']).toBe('application/rss+xml; charset=utf-8');
      const parser = new Parser();
      const atom = await parser.parseString(atomRes.body);
      const rss = await parser.parseString(rssRes.body);
      expect(atom.title).toBe('Acme & Co status');
      expect(rss.title).toBe('Acme & Co status');
      const published = [ids.hiddenPm, ids.resolved, ids.critical, ids.minor, ids.old];
      // The latest activity first: the unpublished-postmortem notice was created last, then the post-mortem.
      expect(atom.items.map((i) => i.link)).toEqual(
        published.map((id) => `${t.config.publicUrl}/status/${slug}#${id}`),
      );
      expect(rss.items.map((i) => i.link)).toEqual(atom.items.map((i) => i.link));
      const host = new URL(t.config.publicUrl).hostname;
      for (const item of atom.items)
        expect(item.id).toMatch(
          new RegExp(`^tag:${host.replace(/\./g, '\\.')},\\d{4}-\\d{2}-\\d{2}:tocsin/notice/ntc_`),
        );
      expect(new Set(rss.items.map((i) => i.guid)).size).toBe(published.length);
      expect(rss.items.map((i) => i.guid)).toEqual(atom.items.map((i) => i.id));
      const hostile = atom.items.find((i) => i.link!.endsWith(ids.critical!))!;
      expect(hostile.title).toBe(HOSTILE_TITLE);
      expect(hostile.content).toContain('Found the <strong>cause</strong>.');
      expect(hostile.content).toContain('Read &lt;img src=x onerror=alert(1)&gt;');
      expect(hostile.content).not.toMatch(/<img|<script|href="javascript:/i);
      const rssHostile = rss.items.find((i) => i.link!.endsWith(ids.critical!))!;
      expect(rssHostile.title).toBe(HOSTILE_TITLE);
      expect(rssHostile.content).toContain('Read &lt;img src=x onerror=alert(1)&gt;');
      // Dates are real dates; nothing of the draft.
      for (const item of [...atom.items, ...rss.items]) expect(Number.isNaN(Date.parse(item.isoDate!))).toBe(false);
      expect(atomRes.body + rssRes.body).not.toContain('Secret draft');
      const pm = atom.items.find((i) => i.link!.endsWith(ids.resolved!))!;
      expect(pm.content).toContain('<h2>What happened</h2>');
    });

    it.skipIf(skipWithout('python3'))(
      'Python’s XML parser finds every element RFC 4287 and RSS 2.0 require',
      async () => {
        const dir = mkdtempSync(join(tmpdir(), 'tocsin-feeds-'));
        try {
          writeFileSync(join(dir, 'feed.atom'), (await get(`/status/${slug}/feed.atom`)).rawPayload);
          writeFileSync(join(dir, 'feed.rss'), (await get(`/status/${slug}/feed.rss`)).rawPayload);
          const run = spawnSync('python3', ['-c', PYTHON_CHECK, join(dir, 'feed.atom'), join(dir, 'feed.rss')], {
            encoding: 'utf8',
          });
          expect(run.status, run.stderr).toBe(0);
          const out = JSON.parse(run.stdout) as Json;
          expect(out.atom.entries).toHaveLength(5);
          expect(out.rss.items).toHaveLength(5);
          const entry = out.atom.entries.find((e: Json) => e.title === HOSTILE_TITLE);
          expect(entry.published <= entry.updated).toBe(true);
          expect(out.rss.items.every((i: Json) => i.permalink === 'false')).toBe(true);
          // The feed's updated is its newest entry's.
          expect(out.atom.updated).toBe(out.atom.entries[0].updated);
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      },
    );

    it('a page that is not public, or none, has no feeds', async () => {
      expect((await get('/status/no-such-page/feed.atom')).statusCode).toBe(404);
      await call('PATCH', `/api/v1/status-pages/${ids.page}`, { public: false });
      expect((await get(`/status/${slug}/feed.rss`)).statusCode).toBe(404);
      expect((await get(`/status/${slug}/feed.atom`)).statusCode).toBe(404);
      await call('PATCH', `/api/v1/status-pages/${ids.page}`, { public: true });
    });
  });
}
