/**
 * How each destination renders a `scheduled_report` event: email attaches the PDF and CSV (the PDF only linked when
 * over 10 MB), chat types carry a short summary with the period and the links, the generic webhook carries `data`
 * as the event has it.
 */
import { describe, expect, it } from 'vitest';
import { alertEvent, delivery, destinationRecord, renderCtx } from '../../../../test/fakes/alert-events.ts';
import type { AlertEvent, DestinationType, MailMessage } from './destination.contract.ts';
import { MAX_ATTACHED_PDF_BYTES } from './destination.report.ts';
import { createProviderRegistry } from './destination.registry.ts';

const file = (kind: string, size: number) => ({
  id: `rpf_${kind}`,
  url: `https://tocsin.example.com/api/v1/report-files/rpf_${kind}?token=t-${kind}`,
  filename: `tocsin-availability-2026-11-23-2026-11-29.${kind}`,
  content_type: kind === 'pdf' ? 'application/pdf' : kind === 'csv' ? 'text/csv; charset=utf-8' : 'application/json',
  size_bytes: size,
  expires_at: '2026-12-07T07:00:00.000Z',
});

function reportEvent(pdfBytes: number): AlertEvent {
  return alertEvent('scheduled_report', {
    data: {
      scheduled_report_id: 'srp_1',
      report_type: 'availability',
      period: { from: '2026-11-22T23:00:00.000Z', to: '2026-11-29T23:00:00.000Z', timezone: 'Europe/Berlin' },
      summary: { monitors: 3, uptime_percent: 99.95, downtime_seconds: 302, incidents: 1 },
      files: { json: file('json', 2048), csv: file('csv', 512), pdf: file('pdf', pdfBytes) },
    },
  });
}

const registry = createProviderRegistry();
const render = (type: DestinationType, config: Record<string, unknown>, event: AlertEvent) =>
  registry.get(type)!.render(event, destinationRecord(type, config), delivery(), renderCtx);

describe('scheduled_report rendering', () => {
  it('email attaches the PDF and the CSV by stored file id', () => {
    const mail = render('email', { address: 'ops@example.com' }, reportEvent(80_000)) as MailMessage;
    expect(mail.subject).toBe('[Tocsin] Scheduled report: availability');
    expect(mail.attachments).toEqual([
      { filename: file('pdf', 0).filename, contentType: 'application/pdf', fileId: 'rpf_pdf' },
      { filename: file('csv', 0).filename, contentType: 'text/csv; charset=utf-8', fileId: 'rpf_csv' },
    ]);
    expect(mail.text).toContain('Period: 2026-11-23 – 2026-11-29 (Europe/Berlin)');
    expect(mail.text).toContain('uptime percent: 99.95');
  });

  it('email links a PDF over 10 MB instead of attaching it', () => {
    const mail = render(
      'email',
      { address: 'ops@example.com' },
      reportEvent(MAX_ATTACHED_PDF_BYTES + 1),
    ) as MailMessage;
    expect(mail.attachments?.map((a) => a.fileId)).toEqual(['rpf_csv']);
    expect(mail.text).toContain(`is too large to attach (10.0 MB): ${file('pdf', 0).url}`);
    expect(mail.html).toContain('is too large to attach');
    const exactly = render('email', { address: 'ops@example.com' }, reportEvent(MAX_ATTACHED_PDF_BYTES)) as MailMessage;
    expect(exactly.attachments?.map((a) => a.fileId)).toEqual(['rpf_pdf', 'rpf_csv']);
  });

  it.each([
    ['chatapp1_webhook', { url: 'https://hooks.slack.com/services/T/B/x' }],
    ['chatapp1_channel', { installation_id: 'ins_1', channel_id: 'C1' }],
    ['chatapp2_webhook', { url: 'https://example.webhook.office.com/x' }],
    ['chatapp3_webhook', { url: 'https://discord.com/api/webhooks/1/x' }],
    ['chatapp4_bot', { chat_id: '42' }],
  ] as const)('%s carries a short summary with the period and the links', (type, config) => {
    const rendered = JSON.stringify(render(type, config, reportEvent(80_000)));
    expect(rendered).toContain('Scheduled report: availability');
    expect(rendered).toContain('2026-11-23 – 2026-11-29 (Europe/Berlin)');
    expect(rendered).toContain('rpf_pdf?token=t-pdf');
    expect(rendered).toContain('rpf_csv?token=t-csv');
    expect(rendered.length).toBeLessThan(6_000);
  });

  it('the generic webhook sends data as the event carries it', () => {
    const req = render('generic_webhook', { url: 'https://example.com/hook' }, reportEvent(80_000)) as { body: string };
    const body = JSON.parse(req.body) as { event: string; data: Record<string, unknown>; monitor: unknown };
    expect(body.event).toBe('scheduled_report');
    expect(body.monitor).toBeNull();
    expect(Object.keys(body.data).sort()).toEqual(['files', 'period', 'report_type', 'scheduled_report_id', 'summary']);
  });
});
