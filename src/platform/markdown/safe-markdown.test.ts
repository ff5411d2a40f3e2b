import { describe, expect, it } from 'vitest';
import { createSafeMarkdown, isSafeLink } from './safe-markdown.ts';

describe('safe Markdown', () => {
  const md = createSafeMarkdown();

  it('renders Markdown', () => {
    expect(md.render('**bold** and *em*\n\n- one\n- two')).toBe(
      '<p><strong>bold</strong> and <em>em</em></p>\n<ul>\n<li>one</li>\n<li>two</li>\n</ul>\n',
    );
    expect(md.render('line one\nline two')).toBe('<p>line one<br>\nline two</p>\n');
  });

  it('shows raw HTML as text', () => {
    expect(md.render('<script>alert(1)</script>')).toBe('<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>\n');
    expect(md.render('<img src=x onerror=alert(1)>')).toBe('<p>&lt;img src=x onerror=alert(1)&gt;</p>\n');
    expect(md.render('<a href="javascript:alert(1)">x</a>')).not.toContain('<a');
  });

  it('links only to http, https, mailto and relative addresses, without referrer', () => {
    expect(md.render('[a](https://example.com/?a=1&b=2)')).toBe(
      '<p><a href="https://example.com/?a=1&amp;b=2" rel="nofollow noopener noreferrer">a</a></p>\n',
    );
    expect(md.render('[m](mailto:ops@example.com)')).toContain('href="mailto:ops@example.com"');
    expect(md.render('[r](/status/x#y)')).toContain('href="/status/x#y"');
    for (const bad of [
      'javascript:alert(1)',
      'JAVASCRIPT:alert(1)',
      'java%0ascript:alert(1)',
      'data:text/html;base64,PHNjcmlwdD4=',
      'vbscript:msgbox(1)',
      'file:///etc/passwd',
    ]) {
      expect(md.render(`[x](${bad})`), bad).not.toContain('<a');
    }
    expect(md.render('<javascript:alert(1)>')).not.toContain('<a');
  });

  it('sees through whitespace and control characters inside a scheme', () => {
    expect(isSafeLink('java\tscript:alert(1)')).toBe(false);
    expect(isSafeLink(' javascript:alert(1)')).toBe(false);
    expect(isSafeLink('jav\u0000ascript:alert(1)')).toBe(false);
    expect(isSafeLink('https://example.com')).toBe(true);
    expect(isSafeLink('relative/path')).toBe(true);
  });

  it('loads no images: the image syntax stays a link', () => {
    expect(md.render('![alt](https://example.com/a.png)')).not.toContain('<img');
  });
});
