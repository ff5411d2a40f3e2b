import { readFileSync } from 'node:fs';
import { create } from 'fontkit';

/** The faces a report PDF draws with; every run of text uses one of these. */
export type FontFace = 'regular' | 'bold' | 'fallback';

export interface FontRun {
  face: FontFace;
  text: string;
}

const FONT_DIR = new URL('../../../assets/fonts/', import.meta.url);

/**
 * The fonts shipped in assets/fonts, read once per renderer. pdfkit has no glyph fallback, so text is split into
 * runs: what DejaVu Sans can draw stays in DejaVu, the rest (CJK above all) goes to Droid Sans Fallback.
 */
function allLatin(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) >= 0x250) return false;
  return true;
}

export class ReportFonts {
  readonly regular: Buffer;
  readonly bold: Buffer;
  readonly fallback: Buffer;
  private readonly dejavu: { hasGlyphForCodePoint(cp: number): boolean };
  private readonly runsCache = new Map<string, FontRun[]>();

  constructor() {
    this.regular = readFileSync(new URL('DejaVuSans.ttf', FONT_DIR));
    this.bold = readFileSync(new URL('DejaVuSans-Bold.ttf', FONT_DIR));
    this.fallback = readFileSync(new URL('DroidSansFallbackFull.ttf', FONT_DIR));
    this.dejavu = create(this.regular);
  }

  /** Runs of `text` in `face` or, for characters DejaVu lacks, the fallback face. */
  runs(text: string, face: 'regular' | 'bold'): FontRun[] {
    // Latin, Latin-1 and Latin Extended-A/B are all in DejaVu: the common case needs no lookup.
    if (allLatin(text)) return [{ face, text }];
    const key = face + '\u0000' + text;
    const cached = this.runsCache.get(key);
    if (cached) return cached;
    const runs: FontRun[] = [];
    for (const ch of text) {
      const cp = ch.codePointAt(0)!;
      const f: FontFace = cp < 0x250 || this.dejavu.hasGlyphForCodePoint(cp) ? face : 'fallback';
      const last = runs.at(-1);
      if (last && last.face === f) last.text += ch;
      else runs.push({ face: f, text: ch });
    }
    if (this.runsCache.size > 10_000) this.runsCache.clear();
    this.runsCache.set(key, runs);
    return runs;
  }
}
