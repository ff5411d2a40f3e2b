import type { AlertEvent, Delivery, DestinationRecord, MailMessage, RenderContext } from '../destination.contract.ts';
import { groupMessageFor } from '../destination.group.ts';
import type { EmailConfig } from './email.config.ts';
import { colourFor, escapeHtml, linkFor, messageFor } from '../destination.message.ts';
import { reportAttachments } from '../destination.report.ts';

function mailDomain(publicUrl: string): string {
  try {
    return new URL(publicUrl).hostname || 'tocsin';
  } catch {
    return 'tocsin';
  }
}

/** Message-ID of the mail that opens an incident's thread; deterministic from (incident id, monitor id). */
export function incidentMessageId(incidentId: string, monitorId: string | null, publicUrl: string): string {
  return `<incident-${incidentId}${monitorId ? `.${monitorId}` : ''}@${mailDomain(publicUrl)}>`;
}

/** The mail that starts the thread: `down` for a monitor's incident, `incident_opened` for one without a monitor. */
function isThreadRoot(event: AlertEvent): boolean {
  return event.type === 'down' || (event.type === 'incident_opened' && event.monitor === null);
}

/**
 * Threading: the root mail gets `incidentMessageId`; every later mail about the same incident (still_down,
 * acknowledged, recovered, …) gets its own Message-ID (stable per delivery) and In-Reply-To/References pointing at
 * the root, so clients thread them. Mails without an incident are standalone.
 */
export function threadingHeaders(event: AlertEvent, delivery: Delivery, publicUrl: string): Record<string, string> {
  const domain = mailDomain(publicUrl);
  if (!event.incident) return { 'Message-ID': `<${delivery.id}@${domain}>` };
  const root = incidentMessageId(event.incident.id, event.monitor?.id ?? null, publicUrl);
  if (isThreadRoot(event)) return { 'Message-ID': root };
  return {
    'Message-ID': `<incident-${event.incident.id}.${event.type}.${delivery.id}@${domain}>`,
    'In-Reply-To': root,
    References: root,
  };
}

export function renderEmail(
  event: AlertEvent,
  destination: DestinationRecord<EmailConfig>,
  delivery: Delivery,
  ctx: RenderContext,
): MailMessage {
  const msg = messageFor(event);
  const link = linkFor(event, ctx.publicUrl);
  const subjectDetail =
    event.cause && (event.type === 'down' || event.type === 'still_down' || event.type === 'degraded')
      ? ` – ${event.cause}`
      : '';
  const subject = `[Tocsin] ${msg.title}${subjectDetail}`.replace(/\s+/g, ' ').trim().slice(0, 250);
  const linkLabel = event.incident ? `Incident #${event.incident.number}` : 'Open in Tocsin';
  const text = `${msg.title}\n\n${msg.text}\n\n${linkLabel}: ${link}\n\nYou receive this because the destination "${destination.name}" is attached to this alert.\n`;
  const rows = msg.text
    .split('\n')
    .map((line) => `<p style="margin:4px 0">${escapeHtml(line)}</p>`)
    .join('');
  const html =
    `<!doctype html><html><body style="font-family:sans-serif;color:#1d1c1d">` +
    `<div style="border-left:4px solid ${colourFor(msg.severity)};padding-left:12px">` +
    `<h2 style="margin:0 0 8px">${escapeHtml(msg.title)}</h2>${rows}` +
    `<p style="margin:12px 0"><a href="${escapeHtml(link)}">${escapeHtml(linkLabel)}</a></p></div>` +
    `<p style="color:#616061;font-size:12px">You receive this because the destination "${escapeHtml(destination.name)}" is attached to this alert.</p>` +
    `</body></html>`;
  const headers: Record<string, string> = {
    ...threadingHeaders(event, delivery, ctx.publicUrl),
    'Auto-Submitted': 'auto-generated',
    'X-Tocsin-Event': event.type,
  };
  if (event.incident) headers['X-Entity-Ref-ID'] = event.incident.id;
  const message: MailMessage = { to: destination.config.address, subject, text, html, headers };
  if (event.type !== 'scheduled_report') return message;
  const { attachments, linkedOnly } = reportAttachments(event);
  if (attachments.length > 0) message.attachments = attachments;
  for (const f of linkedOnly) {
    const note = `${f.filename} is too large to attach (${(f.size_bytes / 1048576).toFixed(1)} MB): ${f.url}`;
    message.text += `\n${note}\n`;
    message.html = message.html.replace('</body>', `<p>${escapeHtml(note)}</p></body>`);
  }
  return message;
}

/** Several events as one mail (DECISIONS §17): the monitors listed with their links; a standalone mail (no thread). */
export function renderEmailGroup(
  events: readonly AlertEvent[],
  destination: DestinationRecord<EmailConfig>,
  delivery: Delivery,
  ctx: RenderContext,
): MailMessage {
  const group = groupMessageFor(events, ctx.publicUrl);
  const subject = `[Tocsin] ${group.title}`.slice(0, 250);
  const footer = `You receive this because the destination "${destination.name}" is attached to these alerts.`;
  const text = `${group.title}\n\n${group.lines
    .map((l) => `${l.label}: ${l.name}${l.detail ? ` (${l.detail})` : ''}\n  ${l.link}`)
    .join('\n')}\n\n${footer}\n`;
  const items = group.lines
    .map(
      (l) =>
        `<li style="margin:4px 0"><b style="color:${colourFor(l.severity)}">${escapeHtml(l.label)}</b> ` +
        `<a href="${escapeHtml(l.link)}">${escapeHtml(l.name)}</a>${l.detail ? ` – ${escapeHtml(l.detail)}` : ''}</li>`,
    )
    .join('');
  const html =
    `<!doctype html><html><body style="font-family:sans-serif;color:#1d1c1d">` +
    `<div style="border-left:4px solid ${colourFor(group.severity)};padding-left:12px">` +
    `<h2 style="margin:0 0 8px">${escapeHtml(group.title)}</h2><ul style="padding-left:16px">${items}</ul></div>` +
    `<p style="color:#616061;font-size:12px">${escapeHtml(footer)}</p></body></html>`;
  const headers: Record<string, string> = {
    ...threadingHeaders({ ...events[0]!, incident: null }, delivery, ctx.publicUrl),
    'Auto-Submitted': 'auto-generated',
    'X-Tocsin-Event': 'alert_group',
  };
  return { to: destination.config.address, subject, text, html, headers };
}
