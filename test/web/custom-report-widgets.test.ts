/**
 * The custom report builder's widget drafts (web/src/pages/custom-report-edit.drafts.ts): what each choice of
 * scope sends, how a saved widget is read back, and distinct default titles.
 */
import { describe, expect, it } from 'vitest';
import { bodyOf, draftOf, newDraft } from '../../web/src/pages/custom-report-edit.drafts.ts';

describe('custom report widget drafts', () => {
  it('sends only the scope chosen, the tags trimmed, SLA targets only for sla widgets', () => {
    const base = {
      ...newDraft('availability', []),
      monitorIds: ['mon_a'],
      tags: ' web , ,api ',
      slaTargetIds: ['sla_x'],
    };
    expect(bodyOf({ ...base, scope: 'all' })).toEqual({ kind: 'availability', title: 'Availability' });
    expect(bodyOf({ ...base, scope: 'monitors' })).toEqual({
      kind: 'availability',
      title: 'Availability',
      monitor_ids: ['mon_a'],
    });
    expect(bodyOf({ ...base, scope: 'tags' })).toEqual({
      kind: 'availability',
      title: 'Availability',
      tags: ['web', 'api'],
    });
    expect(bodyOf({ ...base, kind: 'sla', scope: 'all' })).toEqual({
      kind: 'sla',
      title: 'Availability',
      options: { sla_target_ids: ['sla_x'] },
    });
    // Chosen monitors with none chosen is sent as it is: the API refuses it at widgets[i].monitor_ids.
    expect(bodyOf({ ...base, scope: 'monitors', monitorIds: [] }).monitor_ids).toEqual([]);
  });

  it('reads a saved widget back into the same body', () => {
    for (const w of [
      { kind: 'performance' as const, title: 'Speed', tags: ['web'] },
      { kind: 'availability' as const, title: 'Uptime', monitor_ids: ['mon_a', 'mon_b'] },
      { kind: 'sla' as const, title: 'SLA', options: { sla_target_ids: ['sla_x'] } },
      { kind: 'incidents' as const, title: 'Incidents' },
    ])
      expect(bodyOf(draftOf(w))).toEqual(w);
  });

  it('gives a new widget a title no other widget has', () => {
    expect(newDraft('sla', ['SLA', 'SLA 2']).title).toBe('SLA 3');
    expect(newDraft('monitor_health', []).title).toBe('Monitor health');
  });
});
