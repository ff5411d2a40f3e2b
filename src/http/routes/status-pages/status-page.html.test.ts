import { describe, expect, it } from 'vitest';
import { outageLevel, type PublicDay, type PublicStatusView } from '../../../modules/status-pages/index.ts';
import { barClass, barLabel, durationText, escapeHtml, percentText, renderStatusPage } from './status-page.html.ts';

const day = (d: string, uptime: number | null, downtime = 0, paused = 0, maintenance = 0): PublicDay => ({
  day: d,
  checks: 0,
  failures: 0,
  downtime_seconds: downtime,
  uptime_percent: uptime,
  monitored_seconds: uptime === null ? 0 : 86_400 - paused - maintenance,
  paused_seconds: paused,
  maintenance_seconds: maintenance,
});

describe('status page HTML', () => {
  const now = Date.parse('2026-05-10T10:00:30Z');
  const view: PublicStatusView = {
    pageId: 'stp_1',
    pageUpdatedAt: now,
    slug: 'acme',
    title: 'Acme',
    groups: [],
    timezone: 'UTC',
    status: 'degraded',
    outage: 'partial',
    generatedAt: now,
    days: 4,
    monitors: [
      {
        id: 'mon_1',
        name: 'API',
        status: 'degraded',
        uptimePercent: 97.5,
        uptime: { last_24_hours: 90, last_7_days: 99.999, last_30_days: 99.5, last_90_days: 97.5 },
        days: [
          day('2026-05-07', null),
          day('2026-05-08', null, 0, 86_400),
          day('2026-05-09', 100),
          day('2026-05-10', 93.05556, 3000),
        ],
        createdAt: Date.parse('2026-01-01T00:00:00Z'),
        statusChangedAt: now - 50 * 60_000,
      },
      {
        id: 'mon_2',
        name: 'Web',
        status: 'operational',
        uptimePercent: null,
        uptime: { last_24_hours: null, last_7_days: null, last_30_days: null, last_90_days: null },
        days: [],
        createdAt: Date.parse('2026-01-01T00:00:00Z'),
        statusChangedAt: Date.parse('2026-01-01T00:00:00Z'),
      },
    ],
    incidents: [
      {
        id: 'inc_1',
        number: 3,
        title: 'API is down',
        status: 'acknowledged',
        monitorId: 'mon_1',
        openedAt: now - 50 * 60_000,
        acknowledgedAt: now - 40 * 60_000,
        startedAt: now - 50 * 60_000,
        resolvedAt: null,
      },
    ],
    pastIncidents: [
      {
        id: 'inc_0',
        number: 2,
        title: 'Web <b>is</b> down',
        status: 'resolved',
        monitorId: 'mon_2',
        openedAt: Date.parse('2026-05-01T08:00:00Z'),
        acknowledgedAt: null,
        startedAt: Date.parse('2026-05-01T08:00:00Z'),
        resolvedAt: Date.parse('2026-05-01T10:05:00Z'),
      },
    ],
    pastIncidentsTruncated: false,
    maintenance: [],
    notices: { active: [], past: [] },
    allowEmbedding: false,
    subscriptionsEnabled: false,
    slaTargets: [
      {
        id: 'sla_1',
        name: 'Public API',
        targetPercent: 99.9,
        period: 'monthly',
        monitorIds: ['mon_1'],
        from: Date.parse('2026-05-01T00:00:00Z'),
        to: Date.parse('2026-06-01T00:00:00Z'),
        achievedPercent: 99.5,
        met: null,
        status: 'in_progress',
        errorBudgetRemainingPercent: -20,
        errorBudgetUsedPercent: 120,
        errorBudgetExhausted: true,
      },
      {
        id: 'sla_2',
        name: 'Checkout',
        targetPercent: 99.5,
        period: 'monthly',
        monitorIds: ['mon_1'],
        from: Date.parse('2026-05-01T00:00:00Z'),
        to: Date.parse('2026-06-01T00:00:00Z'),
        achievedPercent: 78.87,
        met: null,
        status: 'in_progress',
        errorBudgetRemainingPercent: 12.5,
        errorBudgetUsedPercent: 87.5,
        errorBudgetExhausted: false,
      },
    ],
  };

  it('labels every day bar with date, uptime and downtime, and paused days apart from days without data', () => {
    const html = renderStatusPage(view);
    expect(html).toContain('<li class="none"><span>2026-05-07: no data</span></li>');
    expect(html).toContain('<li class="paused"><span>2026-05-08: paused, not monitored</span></li>');
    expect(html).toContain('<li class="ok"><span>2026-05-09: 100% uptime</span></li>');
    expect(html).toContain('<li class="bad"><span>2026-05-10: 93.05% uptime, 50 min down</span></li>');
    expect(html).not.toMatch(/<script/i);
  });

  it('shows the windows, the banner in words, incidents current and past, and SLA targets', () => {
    const html = renderStatusPage(view);
    expect(html).toContain('<dt>24 hours</dt><dd>90.00%</dd>');
    expect(html).toContain('<dt>7 days</dt><dd>99.99%</dd>'); // cut, never rounded up to 100 %
    expect(html).toContain('<dt>90 days</dt><dd>no data</dd>');
    expect(html).toContain('! Partial outage<small>1 of 2 systems degraded</small>');
    expect(html).toContain('! Investigating');
    expect(html).toContain('50 min so far');
    expect(html).toContain('Web &lt;b&gt;is&lt;/b&gt; down');
    expect(html).toContain('lasted 2 h 5 min');
    expect(html).toContain('<th scope="row">Public API</th><td data-h="Target">99.9%</td>');
    expect(html).toContain('2026-05-01 – 2026-05-31 (monthly)');
    expect(html).toContain('✕ Budget exhausted</span><br><small>120.00% of the error budget used</small>');
    // A running period below its target with budget left is in progress, never "On target".
    expect(html).toContain('In progress</span><br><small>87.50% of the error budget used</small>');
    expect(html).not.toContain('On target');
    // Minute precision: a render 20 s later is the same page.
    expect(renderStatusPage({ ...view, generatedAt: now + 20_000 })).toBe(html);
  });

  it('says when nothing happened and leaves the SLA section out when there are no targets', () => {
    const html = renderStatusPage({ ...view, incidents: [], pastIncidents: [], slaTargets: [], outage: 'none' });
    expect(html).toContain('✓ All systems operational');
    expect(html).toContain('No incidents in the last 4 days.');
    expect(html).not.toContain('Current incidents');
    expect(html).not.toContain('Service level targets');
  });

  it('formats percentages, durations and labels', () => {
    expect(percentText(99.999)).toBe('99.99%');
    expect(percentText(100)).toBe('100%');
    expect(durationText(30)).toBe('30 s');
    expect(durationText(3000)).toBe('50 min');
    expect(durationText(7200)).toBe('2 h');
    expect(durationText(90_000)).toBe('1 d 1 h');
    expect(barLabel(day('d', 99.5, 432))).toBe('d: 99.50% uptime, 7 min down');
  });

  it('shows maintenance excluded from the SLA as its own bar state and in the tooltip', () => {
    // A whole day in maintenance: nothing monitored, the maintenance state (not "no data").
    expect(barClass(day('d', null, 0, 0, 86_400))).toBe('maintenance');
    expect(barLabel(day('d', null, 0, 0, 86_400))).toBe('d: 1 d maintenance, not counted');
    // Part of a day: the uptime of the time outside the window, its colour, and the maintenance mark.
    expect(barClass(day('d', 100, 0, 0, 7200))).toBe('ok mnt');
    expect(barLabel(day('d', 100, 0, 0, 7200))).toBe('d: 100% uptime, 2 h maintenance, not counted');
    expect(barClass(day('d', 90, 8000, 0, 3600))).toBe('bad mnt');
    // Paused more than in maintenance: paused.
    expect(barClass(day('d', null, 0, 50_000, 3600))).toBe('paused');
    expect(barClass(day('d', 100))).toBe('ok');
    const html = renderStatusPage({
      ...view,
      monitors: [{ ...view.monitors[0]!, days: [day('2026-05-10', null, 0, 0, 86_400)] }],
    });
    expect(html).toContain('<li class="maintenance"><span>2026-05-10: 1 d maintenance, not counted</span></li>');
    expect(html).toContain('<li><i class="maintenance"></i>maintenance (not counted)</li>');
  });

  it('tells partial from major outages among watched monitors', () => {
    expect(outageLevel(['operational', 'paused'])).toBe('none');
    expect(outageLevel(['degraded', 'operational'])).toBe('partial');
    expect(outageLevel(['degraded', 'paused', 'pending'])).toBe('major');
  });

  it('escapes markup and quotes', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  });
});
