/**
 * Badges in a real Chromium over a real port: each SVG opens as a well-formed SVG document (no parser error) with
 * role="img" and its title; the texts render inside their boxes at the widths the table gave (the texts' own
 * width in the page's font, DejaVu Sans here, within a few percent of the table for ASCII); names with markup,
 * accents and CJK are text, not markup; as an <img> the badge is as wide as it says and 20 px high.
 */
import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { at, clientOf } from '../reports/reports.helpers.ts';
import { createTestApp, ManualClock, type TestApp } from '../support/app.ts';
import { skipWithout, testServices } from '../support/services.ts';

const shots = process.env.TOCSIN_SCREENSHOTS ?? join(os.tmpdir(), 'tocsin-badge-shots');
const NAMES = { ascii: 'Checkout API', markup: 'Shop <script>alert(1)</script> & "Co"', wide: 'Café 東京 ✓' };

interface Rendered {
  root: string;
  parserError: boolean;
  role: string | null;
  ariaLabel: string | null;
  title: string | null;
  width: number;
  height: number;
  rects: Array<{ x: number; width: number }>;
  texts: Array<{ content: string; left: number; right: number; natural: number; textLength: number }>;
}

/** What Chromium made of the SVG document at `url`. */
async function inspect(page: Page, url: string): Promise<Rendered> {
  const response = await page.goto(url);
  expect(response?.status()).toBe(200);
  return (await page.evaluate(INSPECT)) as Rendered;
}

/** Runs in the page (a string: this project's TypeScript has no DOM types). */
const INSPECT = `(() => {
  const svg = document.documentElement;
  const box = svg.getBoundingClientRect();
  // The drawn (not shadow) texts: those at y=140.
  const texts = [...svg.querySelectorAll('text')].filter((t) => t.getAttribute('y') === '140');
  return {
    root: svg.tagName,
    parserError: document.getElementsByTagName('parsererror').length > 0,
    role: svg.getAttribute('role'),
    ariaLabel: svg.getAttribute('aria-label'),
    title: svg.querySelector('title')?.textContent ?? null,
    width: box.width,
    height: box.height,
    rects: [...svg.querySelectorAll('g[clip-path] rect')]
      .filter((r) => r.getAttribute('fill') !== 'url(#s)')
      .map((r) => ({ x: Number(r.getAttribute('x') ?? 0), width: Number(r.getAttribute('width')) })),
    texts: texts.map((t) => {
      const r = t.getBoundingClientRect();
      // The text's own width in the font Chromium picked, without the textLength that fits it to its box.
      const copy = t.cloneNode(true);
      copy.removeAttribute('textLength');
      t.parentNode.appendChild(copy);
      const natural = copy.getComputedTextLength() / 10;
      copy.remove();
      return {
        content: t.textContent ?? '',
        left: r.left - box.left,
        right: r.right - box.left,
        natural,
        textLength: Number(t.getAttribute('textLength')) / 10,
      };
    }),
  };
})()`;

describe.skipIf(skipWithout('chromium'))('badges in Chromium', () => {
  let t: TestApp;
  let browser: Browser;
  let origin: string;
  const tokens: Record<keyof typeof NAMES, string> = { ascii: '', markup: '', wide: '' };

  beforeAll(async () => {
    const clock = new ManualClock('2026-07-01T00:00:00.000Z');
    t = await createTestApp({ clock });
    const c = clientOf(t, await t.createOrg());
    const ids: string[] = [];
    for (const key of Object.keys(NAMES) as Array<keyof typeof NAMES>) {
      const id = await c.createMonitor({ name: NAMES[key] });
      await c.check(id, 'up', at('2026-07-01T00:00:00Z'), 'local', 180);
      tokens[key] = (await c.call('POST', `/api/v1/monitors/${id}/badge`)).body.token;
      ids.push(id);
    }
    clock.set('2026-07-02T00:00:00Z');
    expect(
      (
        await c.call('POST', '/api/v1/status-pages', {
          slug: 'badge-chromium',
          title: 'Acme <status>',
          monitor_ids: ids,
        })
      ).status,
    ).toBe(201);
    await t.tocsin.app.listen({ port: 0, host: '127.0.0.1' });
    origin = `http://127.0.0.1:${(t.tocsin.app.server.address() as AddressInfo).port}`;
    browser = await chromium.launch({
      executablePath: testServices.chromiumPath!,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
    });
    mkdirSync(shots, { recursive: true });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it(
    'opens each badge as a well-formed, accessible SVG whose texts fit their boxes',
    { timeout: 120_000 },
    async () => {
      const page = await browser.newPage();
      const cases: Array<{ url: string; label: string; message: string; asciiOnly: boolean }> = [
        { url: `/badge/${tokens.ascii}/status.svg`, label: NAMES.ascii, message: 'up', asciiOnly: true },
        { url: `/badge/${tokens.ascii}/uptime.svg?days=1`, label: 'uptime 1d', message: '100%', asciiOnly: true },
        { url: `/badge/${tokens.ascii}/response-time.svg`, label: 'response time', message: '', asciiOnly: true },
        { url: `/badge/${tokens.markup}/status.svg`, label: NAMES.markup, message: 'up', asciiOnly: true },
        { url: `/badge/${tokens.wide}/status.svg`, label: NAMES.wide, message: 'up', asciiOnly: false },
        { url: '/status/badge-chromium/badge.svg', label: 'Acme <status>', message: 'operational', asciiOnly: true },
      ];
      for (const c of cases) {
        const r = await inspect(page, `${origin}${c.url}`);
        const where = `${c.url}: ${JSON.stringify(r)}`;
        expect(r.root, where).toBe('svg');
        expect(r.parserError, where).toBe(false);
        expect(r.role).toBe('img');
        const message = c.message === '' ? r.texts[1]!.content : c.message;
        if (c.message === '') expect(message).toMatch(/^1[78]\d ms$/);
        expect(r.ariaLabel).toBe(`${c.label}: ${message}`);
        expect(r.title).toBe(`${c.label}: ${message}`);
        // The markup in a name is text: no element came of it.
        expect(await page.evaluate("document.getElementsByTagName('script').length")).toBe(0);
        expect(r.texts.map((x) => x.content)).toEqual([c.label, message]);
        expect(r.height).toBe(20);
        const [labelBox, messageBox] = r.rects;
        expect(labelBox!.x).toBe(0);
        expect(messageBox!.x).toBe(labelBox!.width);
        expect(r.width).toBe(labelBox!.width + messageBox!.width);
        r.texts.forEach((text, i) => {
          const box = r.rects[i]!;
          // Drawn inside its box, with the padding on each side (a pixel of antialiasing aside).
          expect(text.left, where).toBeGreaterThanOrEqual(box.x + 3);
          expect(text.right, where).toBeLessThanOrEqual(box.x + box.width - 3);
          expect(text.right - text.left, where).toBeGreaterThan(text.textLength - 2);
          // The table's width is the font's: within 3 % for ASCII in DejaVu Sans (Verdana's metrics' cousin).
          if (c.asciiOnly) expect(Math.abs(text.natural - text.textLength) / text.textLength, where).toBeLessThan(0.03);
        });
      }
      await page.close();
    },
  );

  it('shows as an image of the size it declares', { timeout: 60_000 }, async () => {
    const page = await browser.newPage();
    // Another site's page (a README, a dashboard): the badges load cross-origin.
    await page.setContent('<!doctype html><html lang="en"><title>README</title><body></body></html>');
    const urls = [
      `${origin}/badge/${tokens.ascii}/status.svg`,
      `${origin}/badge/${tokens.markup}/uptime.svg?days=30`,
      `${origin}/status/badge-chromium/badge.svg`,
    ];
    // In the page (a string: no DOM types here): each badge as an <img>, and the width its SVG declares.
    const sizes = (await page.evaluate(`(async (list) => {
      const images = list.map((src) => {
        const img = document.createElement('img');
        img.src = src;
        img.alt = 'badge';
        document.body.appendChild(img);
        return img;
      });
      await Promise.all(images.map((img) => img.decode()));
      const declared = await Promise.all(
        list.map(async (src) => Number(/ width="(\\d+)"/.exec(await (await fetch(src)).text())[1])),
      );
      return images.map((img, i) => ({ natural: [img.naturalWidth, img.naturalHeight], declared: declared[i] }));
    })(${JSON.stringify(urls)})`)) as Array<{ natural: number[]; declared: number }>;
    for (const s of sizes) expect(s.natural).toEqual([s.declared, 20]);
    await page.screenshot({ path: join(shots, 'badges.png') });
    await page.close();
  });
});
