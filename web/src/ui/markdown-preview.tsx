import { useMemo } from 'react';
import { createSafeMarkdown } from '../lib/markdown';

/**
 * Markdown as readers will see it, rendered as it is typed. The HTML comes from the safe renderer (raw HTML is
 * shown as text, unsafe links are not links), which is why it may be set as HTML here.
 */
export function MarkdownPreview({ source, label }: { source: string; label: string }) {
  const md = useMemo(() => createSafeMarkdown(), []);
  const html = useMemo(() => md.render(source), [md, source]);
  return (
    <section className="md-preview" aria-label={label}>
      {source.trim() === '' ? (
        <p className="hint">Nothing to preview yet.</p>
      ) : (
        <div className="md" dangerouslySetInnerHTML={{ __html: html }} />
      )}
    </section>
  );
}

/** Markdown already saved, rendered the same way (the timeline, the post-mortem). */
export function MarkdownText({ source }: { source: string }) {
  const md = useMemo(() => createSafeMarkdown(), []);
  return <div className="md" dangerouslySetInnerHTML={{ __html: md.render(source) }} />;
}
