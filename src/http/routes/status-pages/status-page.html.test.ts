import { describe, expect, it } from 'vitest';
import { windowUptime, type PublicStatusView } from '../../../modules/status-pages/index.ts';
import { escapeHtml, renderStatusPage } from './status-page.html.ts';

const day = (d: string, checks: number, failures: number) => ({
  day: d,
  checks,
  failures,
  downtime_seconds: failures * 30,
  uptime_percent: checks === 0 ? null : Math.round((10_000 * (checks - failures)) / checks) / 100,
});

describe('status page HTML', () => {
  const days = [day('2026-05-08', 0, 0), day('2026-05-09', 2880, 0), day('2026-05-10', 1000, 100)];
  const view: PublicStatusView = {
    slug: 'acme',
    title: 'Acme',
    status: 'operational',
    generatedAt: Date.parse('2026-05-10T10:00:00Z'),
    days: 3,
    monitors: [{ id: 'mon_1', name: 'API', status: 'operational', uptimePercent: windowUptime(days), days }],
    incidents: [],
  };

  it('labels every bar with its date and uptime, colours by uptime, and says "no data" for empty days', () => {
    const html = renderStatusPage(view);
    expect(html).toContain('<li class="none" title="2026-05-08: no data">');
    expect(html).toContain('<li class="ok" title="2026-05-09: 100% uptime">');
    expect(html).toContain('<li class="bad" title="2026-05-10: 90% uptime, 50 min down">');
    expect(html).toContain('<span class="sr">2026-05-10: 90% uptime, 50 min down</span>');
    expect(html).toContain('All systems operational');
    expect(html).toContain('97.42% uptime');
    expect(html).not.toContain('Current incidents');
    expect(html).not.toMatch(/<script/i);
  });

  it('escapes markup and quotes', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  });

  it('weights window uptime by checks and is null without data', () => {
    expect(windowUptime([day('d', 0, 0)])).toBeNull();
    expect(windowUptime([day('a', 100, 0), day('b', 100, 50)])).toBe(75);
  });
});
