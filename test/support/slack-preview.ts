/**
 * A Slack message (Block Kit `{text, blocks}`, as posted to an incoming webhook or chat.postMessage) drawn the way
 * Slack's desktop client shows it in a channel: the app's avatar, name, APP badge and time, then each block (header,
 * section with mrkdwn, context, actions, divider). For screenshots of what a channel sees; written from Slack's
 * documented rendering rules (mrkdwn `*bold*`, `_italic_`, `~strike~`, `` `code` ``, `<url|label>` links, text
 * already escaped with `&amp; &lt; &gt;`), independent of Tocsin's renderers.
 */

interface Element {
  type: string;
  text?: string | { type: string; text: string };
  url?: string;
}
type Block = { type: string; text?: { type: string; text: string }; elements?: Element[] };

/** An element's text: a string (context mrkdwn) or a text object (a button's label). */
const textOf = (e: Element) => (typeof e.text === 'string' ? e.text : (e.text?.text ?? ''));

const attr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
const plain = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Slack mrkdwn (entities already escaped by the sender) to HTML. */
export function mrkdwnToHtml(text: string): string {
  const parts = text.split(/<([^<>|]+)\|([^<>]*)>|<([^<>|]+)>/);
  let html = '';
  for (let i = 0; i < parts.length; i += 4) {
    html += inline(parts[i] ?? '');
    const url = parts[i + 1] ?? parts[i + 3];
    if (url !== undefined) {
      const label = parts[i + 2] ?? url;
      html += `<a href="${attr(url)}" target="_blank">${inline(label)}</a>`;
    }
  }
  return html.replace(/\n/g, '<br>');
}

function inline(s: string): string {
  return s
    .replace(/`([^`\n]+)`/g, '<code>$1</code>')
    .replace(/(^|[\s(])\*([^*\n]+)\*/g, '$1<b>$2</b>')
    .replace(/(^|[\s(])_([^_\n]+)_/g, '$1<i>$2</i>')
    .replace(/(^|[\s(])~([^~\n]+)~/g, '$1<s>$2</s>');
}

function blockHtml(b: Block): string {
  switch (b.type) {
    case 'header':
      return `<div class="header">${plain(b.text?.text ?? '')}</div>`;
    case 'section':
      return `<div class="section">${b.text?.type === 'mrkdwn' ? mrkdwnToHtml(b.text.text) : plain(b.text?.text ?? '')}</div>`;
    case 'context':
      return `<div class="context">${(b.elements ?? [])
        .map((e) => (e.type === 'mrkdwn' ? mrkdwnToHtml(textOf(e)) : plain(textOf(e))))
        .join(' ')}</div>`;
    case 'actions':
      return `<div class="actions">${(b.elements ?? [])
        .map((e) => `<a class="button" href="${attr(e.url ?? '#')}">${plain(textOf(e))}</a>`)
        .join('')}</div>`;
    case 'divider':
      return '<hr>';
    default:
      return '';
  }
}

export function slackPreviewHtml(
  message: { text: string; blocks?: Block[] },
  o: { app: string; time: string },
): string {
  const body = message.blocks?.length
    ? message.blocks.map(blockHtml).join('')
    : `<div class="section">${mrkdwnToHtml(message.text)}</div>`;
  return `<!doctype html><html><head><meta charset="utf-8"><style>
  body { margin: 0; background: #fff; font: 15px/1.46668 "Liberation Sans", "DejaVu Sans", Arial, sans-serif; color: #1d1c1d; }
  .channel { border-bottom: 1px solid #ddd; padding: 10px 20px; font-weight: 900; font-size: 18px; }
  .message { display: flex; gap: 8px; padding: 8px 20px; }
  .avatar { width: 36px; height: 36px; border-radius: 6px; background: #b3261e; color: #fff; font-weight: 900;
    display: flex; align-items: center; justify-content: center; flex: none; }
  .meta { display: flex; gap: 6px; align-items: baseline; }
  .name { font-weight: 900; }
  .badge { font-size: 10px; background: rgba(29,28,29,.13); color: rgba(29,28,29,.7); border-radius: 2px; padding: 0 3px; font-weight: 700; }
  .time { font-size: 12px; color: #616061; }
  .header { font-size: 18px; font-weight: 900; margin: 4px 0; }
  .section { margin: 4px 0; }
  .context { font-size: 13px; color: #616061; margin: 4px 0; }
  a { color: #1264a3; text-decoration: none; }
  code { font-family: "DejaVu Sans Mono", monospace; font-size: 12px; color: #e01e5a; background: rgba(29,28,29,.04);
    border: 1px solid rgba(29,28,29,.13); border-radius: 3px; padding: 0 3px; }
  .button { display: inline-block; border: 1px solid rgba(29,28,29,.3); border-radius: 4px; padding: 3px 12px; margin: 4px 8px 0 0;
    color: #1d1c1d; font-weight: 700; font-size: 13px; }
  hr { border: 0; border-top: 1px solid #ddd; }
</style></head><body>
<div class="channel"># alerts</div>
<div class="message" role="article" aria-label="${attr(o.app)} message">
  <div class="avatar">${plain(o.app.slice(0, 1))}</div>
  <div class="content"><div class="meta"><span class="name">${plain(o.app)}</span><span class="badge">APP</span><span class="time">${plain(o.time)}</span></div>
  ${body}</div>
</div></body></html>`;
}
