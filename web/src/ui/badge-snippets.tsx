import { useState } from 'react';

export interface BadgeSnippet {
  /** What the badge shows, e.g. "Status". */
  name: string;
  /** The badge's public URL (absolute: it goes into other sites). */
  url: string;
  /** The image's alternative text in the snippets. */
  alt: string;
  /** Where a click on the badge leads; none: the image alone. */
  link?: string;
}

/** The HTML for a badge, with its markup characters escaped. */
function htmlOf(s: BadgeSnippet): string {
  const esc = (v: string) => v.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  const img = `<img src="${esc(s.url)}" alt="${esc(s.alt)}">`;
  return s.link ? `<a href="${esc(s.link)}">${img}</a>` : img;
}

/** The Markdown for a badge; brackets in the alternative text would end it early. */
function markdownOf(s: BadgeSnippet): string {
  const img = `![${s.alt.replace(/[[\]]/g, '')}](${s.url})`;
  return s.link ? `[${img}](${s.link})` : img;
}

/** A preview from this server (the app's own origin: its content policy allows it) whatever the public URL. */
function previewOf(url: string): string {
  const u = new URL(url, window.location.href);
  return `${u.pathname}${u.search}`;
}

/**
 * Each badge with a preview and its Markdown and HTML snippets, each with a Copy button. `version` (pages only: a
 * monitor badge's address changes with its token) makes the preview skip the badge's minute of caching after a save.
 */
export function BadgeSnippets({ badges, version }: { badges: BadgeSnippet[]; version?: string | number }) {
  const [copied, setCopied] = useState<string | null>(null);
  const copy = (key: string, text: string) =>
    void navigator.clipboard?.writeText(text).then(
      () => setCopied(key),
      () => setCopied(null),
    );
  return (
    <ul className="plain badge-snippets">
      {badges.map((b) => (
        <li key={b.url}>
          <h3>{b.name}</h3>
          <p>
            <img
              src={`${previewOf(b.url)}${version === undefined ? '' : `${b.url.includes('?') ? '&' : '?'}v=${version}`}`}
              alt={`${b.alt} (preview)`}
            />
          </p>
          {(
            [
              ['Markdown', markdownOf(b)],
              ['HTML', htmlOf(b)],
            ] as const
          ).map(([kind, text]) => {
            const key = `${b.url} ${kind}`;
            return (
              <div key={kind} className="snippet">
                <label>
                  {b.name}, {kind}
                  <textarea className="code" readOnly rows={2} value={text} onFocus={(e) => e.target.select()} />
                </label>
                <button type="button" onClick={() => copy(key, text)}>
                  Copy {kind}
                </button>
                <span role="status">{copied === key ? ' Copied.' : ''}</span>
              </div>
            );
          })}
        </li>
      ))}
    </ul>
  );
}
