import type { NoticePublication, StatusMessage } from './subscriber.types.ts';

export type MaintenancePhase = 'announced' | 'started' | 'ended';

type Content = Pick<StatusMessage, 'event' | 'subject' | 'body' | 'data'>;

const PHASE_EVENT = {
  announced: 'status_page.maintenance_announced',
  started: 'status_page.maintenance_started',
  ended: 'status_page.maintenance_ended',
} as const;

const PHASE_WORD: Record<MaintenancePhase, string> = {
  announced: 'Scheduled maintenance',
  started: 'Maintenance in progress',
  ended: 'Maintenance completed',
};

function utc(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** What subscribers are told: a subject, a plain-text body and the data a webhook receives. */
export const SUBSCRIBER_MESSAGES = {
  notice(pageTitle: string, p: NoticePublication): Content {
    const facts = [
      p.status !== null ? `Status: ${p.status}` : null,
      p.impact !== 'none' ? `Impact: ${p.impact}` : null,
    ].filter((l): l is string => l !== null);
    return {
      event: p.updateId === null ? 'status_page.notice_published' : 'status_page.notice_updated',
      subject: `[${pageTitle}] ${p.updateId === null ? '' : 'Update: '}${p.title}`,
      body: [...facts, ...(facts.length > 0 ? [''] : []), p.bodyMarkdown].join('\n'),
      data: {
        notice_id: p.noticeId,
        update_id: p.updateId,
        kind: p.kind,
        title: p.title,
        impact: p.impact,
        status: p.status,
        body: p.bodyMarkdown,
        published_at: p.publishedAt.toISOString(),
      },
    };
  },

  maintenance(
    pageTitle: string,
    phase: MaintenancePhase,
    window: { id: string; name: string; description: string | null },
    o: { start: number; end: number },
  ): Content {
    const when = `From ${utc(o.start)} to ${utc(o.end)}.`;
    return {
      event: PHASE_EVENT[phase],
      subject: `[${pageTitle}] ${PHASE_WORD[phase]}: ${window.name}`,
      body: [when, ...(window.description ? ['', window.description] : [])].join('\n'),
      data: {
        maintenance_window_id: window.id,
        name: window.name,
        description: window.description,
        phase,
        starts_at: new Date(o.start).toISOString(),
        ends_at: new Date(o.end).toISOString(),
      },
    };
  },
};
