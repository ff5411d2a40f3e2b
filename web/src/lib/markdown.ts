// The server's one safe Markdown renderer (src/platform/markdown/safe-markdown.ts), so the notice editor's preview
// is exactly what the public page and the feeds show: no raw HTML, no script, links http, https and mailto only.
export { createSafeMarkdown, type SafeMarkdown } from '../../../src/platform/markdown/safe-markdown.ts';
