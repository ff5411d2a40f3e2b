import { describe, expect, it } from 'vitest';
import { badgeLabel, formatPercent } from './badge.faces.ts';
import { badgeLayout, escapeXml, renderBadgeSvg, shieldsEndpointJson } from './badge.svg.ts';
import { textWidth } from './badge.text-width.ts';

describe('badge text widths', () => {
  it('adds the advance widths of the table', () => {
    expect(textWidth('up')).toBe(13.95); // u 6.97 + p 6.98
    expect(textWidth('100%')).toBe(31.45); // 3 × 7 + % 10.45
    expect(textWidth('')).toBe(0);
  });
  it('gives other characters an average width, wide ones an em, combining marks none', () => {
    expect(textWidth('é')).toBe(7);
    expect(textWidth('東京')).toBe(22);
    expect(textWidth('e\u0301')).toBe(6.77);
    expect(textWidth('🚀')).toBe(11);
  });
});

describe('badge SVG', () => {
  it('sizes each side from its text plus 5 px of padding on each side', () => {
    expect(badgeLayout({ label: 'uptime 7d', message: '99.5%', color: 'green' })).toEqual({
      labelTextWidth: 56.29, // u 6.97 p 6.98 t 4.31 i 3.06 m 10.72 e 6.77 ␣ 3.5 7 7 d 6.98
      messageTextWidth: 34.95, // 9 7 9 7 . 3.5 5 7 % 10.45
      labelWidth: 67, // ⌈56.29⌉ + 10
      messageWidth: 45, // ⌈34.95⌉ + 10
      width: 112,
    });
    expect(badgeLayout({ label: '', message: 'up', color: 'green' }).labelWidth).toBe(0);
  });
  it('escapes markup in texts and attributes and drops characters XML forbids', () => {
    expect(escapeXml(`<a href="x">&'\u0001`)).toBe('&lt;a href=&quot;x&quot;&gt;&amp;&apos;');
    const svg = renderBadgeSvg({ label: 'A <b>', message: 'up', color: 'brightgreen' });
    expect(svg).toContain('aria-label="A &lt;b&gt;: up"');
    expect(svg).toContain('<title>A &lt;b&gt;: up</title>');
    expect(svg).not.toContain('<b>');
    expect(svg).toContain('fill="#4c1"');
  });
  it('speaks shields.io endpoint JSON', () => {
    expect(shieldsEndpointJson({ label: 'x', message: 'y', color: 'red' })).toEqual({
      schemaVersion: 1,
      label: 'x',
      message: 'y',
      color: 'red',
    });
  });
  it('never rounds a percentage up to a better one', () => {
    expect(formatPercent(99.996)).toBe('99.99%');
    expect(formatPercent(100)).toBe('100%');
    expect(formatPercent(98.57142)).toBe('98.57%');
    expect(formatPercent(90)).toBe('90%');
  });
  it('cuts a long name to 60 characters with an ellipsis, counting characters, not UTF-16 units', () => {
    expect(badgeLabel('  Shop  ')).toBe('Shop');
    expect(badgeLabel('x'.repeat(60))).toBe('x'.repeat(60));
    expect(badgeLabel('x'.repeat(61))).toBe(`${'x'.repeat(59)}…`);
    expect(badgeLabel('🚀'.repeat(61))).toBe(`${'🚀'.repeat(59)}…`);
  });
});
