// The one Markdown renderer for text people write for others to read (status-page notices, their updates and
// post-mortems): the public page, the feeds and the web app's live preview all render with it, so the preview
// shows exactly what the public will see. Imported by the web app as well (web/src/lib/markdown.ts), so it uses
// nothing of Node.
import MarkdownIt from 'markdown-it';

/** Link schemes a reader may follow; everything else (javascript:, data:, vbscript:, file: …) stays plain text. */
const ALLOWED_SCHEMES = new Set(['http:', 'https:', 'mailto:']);

/** Relative links (`/x`, `#x`, `x.html`) are allowed; absolute ones only with an allowed scheme. */
export function isSafeLink(url: string): boolean {
  // Browsers ignore ASCII whitespace and control characters inside a scheme ("java\tscript:"): look without them,
  // and without percent-encoding (markdown-it hands over the encoded address), erring on the side of refusing.
  const decoded = url.replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  // eslint-disable-next-line no-control-regex -- exactly those characters are what the check must see through
  const bare = decoded.replace(/[\u0000-\u0020\u007f]/g, '').toLowerCase();
  const scheme = /^([a-z][a-z0-9+.-]*):/.exec(bare);
  if (!scheme) return true;
  return ALLOWED_SCHEMES.has(`${scheme[1]}:`);
}

/** Renders Markdown to HTML that is safe inside a page. Make one per render pass (it holds no state between calls). */
export interface SafeMarkdown {
  render(source: string): string;
}

/** Markdown → HTML without raw HTML, script, unsafe links or images. */
export function createSafeMarkdown(): SafeMarkdown {
  // html: false — raw HTML in the source is shown as text, never passed through (no <script>, no <img onerror>).
  const md = new MarkdownIt('default', { html: false, linkify: true, typographer: false, breaks: true });
  // Images would load from anywhere (and the status page's CSP forbids them anyway): their text stays as written.
  md.disable(['image']);
  md.validateLink = isSafeLink;
  const defaultLinkOpen =
    md.renderer.rules.link_open ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
  // Links leave the page without telling where the reader came from, and are no endorsement.
  md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
    tokens[idx]!.attrSet('rel', 'nofollow noopener noreferrer');
    return defaultLinkOpen(tokens, idx, options, env, self);
  };
  return { render: (source) => md.render(source) };
}
