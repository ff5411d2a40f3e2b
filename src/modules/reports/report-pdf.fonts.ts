import { readFileSync } from 'node:fs';
import { create, type Font } from 'fontkit';

/** The faces a report PDF draws with; every run of text uses one of these. */
export type FontFace = 'regular' | 'bold' | 'fallback';

export interface FontRun {
  face: FontFace;
  text: string;
}

const FONT_DIR = new URL('../../../assets/fonts/', import.meta.url);

function allLatin(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) >= 0x250) return false;
  return true;
}

/**
 * The fonts shipped in assets/fonts, parsed once per renderer and shared by its documents (pdfkit embeds a subset
 * of each in every document). pdfkit has no glyph fallback, so text is split into runs: what DejaVu Sans can draw
 * stays in DejaVu, the rest (CJK above all) goes to Droid Sans Fallback. Widths are summed from the glyphs'
 * advances (kerning left out: it only ever narrows a line, so a cell measured this way still fits).
 */
export class ReportFonts {
  readonly faces: Record<FontFace, Font>;
  private readonly advances: Record<FontFace, Map<number, number>> = {
    regular: new Map(),
    bold: new Map(),
    fallback: new Map(),
  };
  private readonly runsCache = new Map<string, FontRun[]>();

  constructor() {
    const load = (file: string) => create(readFileSync(new URL(file, FONT_DIR)));
    this.faces = {
      regular: load('DejaVuSans.ttf'),
      bold: load('DejaVuSans-Bold.ttf'),
      fallback: load('DroidSansFallbackFull.ttf'),
    };
  }

  private faceFor(cp: number, face: 'regular' | 'bold'): FontFace {
    return cp < 0x250 || this.faces.regular.hasGlyphForCodePoint(cp) ? face : 'fallback';
  }

  /** Advance of one code point in ems. */
  private advance(face: FontFace, cp: number): number {
    const cache = this.advances[face];
    let a = cache.get(cp);
    if (a === undefined) {
      const font = this.faces[face];
      a = font.glyphForCodePoint(cp).advanceWidth / font.unitsPerEm;
      cache.set(cp, a);
    }
    return a;
  }

  /** Width of `text` at size 1 (multiply by the font size). */
  width(text: string, face: 'regular' | 'bold'): number {
    let w = 0;
    if (allLatin(text)) {
      for (let i = 0; i < text.length; i++) w += this.advance(face, text.charCodeAt(i));
      return w;
    }
    for (const ch of text) {
      const cp = ch.codePointAt(0)!;
      w += this.advance(this.faceFor(cp, face), cp);
    }
    return w;
  }

  /** The longest prefix of `text` (whole code points) no wider than `limit` at size 1, and its width. */
  prefix(text: string, face: 'regular' | 'bold', limit: number): { text: string; width: number } {
    let w = 0;
    let end = 0;
    for (const ch of text) {
      const cp = ch.codePointAt(0)!;
      const a = this.advance(this.faceFor(cp, face), cp);
      if (w + a > limit) break;
      w += a;
      end += ch.length;
    }
    return { text: text.slice(0, end), width: w };
  }

  /** Runs of `text` in `face` or, for characters DejaVu lacks, the fallback face. */
  runs(text: string, face: 'regular' | 'bold'): FontRun[] {
    if (allLatin(text)) return [{ face, text }];
    const key = face + '\u0000' + text;
    const cached = this.runsCache.get(key);
    if (cached) return cached;
    const runs: FontRun[] = [];
    for (const ch of text) {
      const f = this.faceFor(ch.codePointAt(0)!, face);
      const last = runs.at(-1);
      if (last && last.face === f) last.text += ch;
      else runs.push({ face: f, text: ch });
    }
    if (this.runsCache.size > 10_000) this.runsCache.clear();
    this.runsCache.set(key, runs);
    return runs;
  }

  /** Width of a run already in its face, at size 1. */
  runWidth(run: FontRun): number {
    let w = 0;
    for (const ch of run.text) w += this.advance(run.face, ch.codePointAt(0)!);
    return w;
  }
}
