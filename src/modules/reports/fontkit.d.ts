// fontkit ships no type declarations; this is the part of its API the PDF renderer uses.
declare module 'fontkit' {
  export interface Glyph {
    advanceWidth: number;
  }
  export interface Font {
    unitsPerEm: number;
    hasGlyphForCodePoint(codePoint: number): boolean;
    glyphForCodePoint(codePoint: number): Glyph;
    /** Present on every font object: pdfkit takes a parsed font in place of its bytes when it has this. */
    layout(text: string): unknown;
  }
  export function create(buffer: Buffer | Uint8Array): Font;
}
