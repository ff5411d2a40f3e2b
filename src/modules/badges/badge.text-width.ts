/**
 * Width in px of text in the badge font (Verdana 11px, shields.io's), from a table of advance widths.
 *
 * The table holds printable ASCII (U+0020..U+007E), measured once in Chromium at 11px in DejaVu Sans, whose
 * metrics are Bitstream Vera's, drawn after Verdana's (digits are 7 px in both). The SVG also gives each text a
 * `textLength` of this width, so a renderer with another font still fits it into the box. Other characters take
 * an average Latin width, East Asian wide ones and emoji a full em.
 */
// prettier-ignore
const ASCII_WIDTHS = [
  3.5, 4.41, 5.06, 9.22, 7, 10.45, 8.58, 3.02, 4.29, 4.29, 5.5, 9.22, 3.5, 3.97, 3.5, 3.71, // space ! " # $ % & ' ( ) * + , - . /
  7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 3.71, 3.71, 9.22, 9.22, 9.22, 5.84, // 0-9 : ; < = > ?
  11, 7.52, 7.55, 7.68, 8.47, 6.95, 6.33, 8.52, 8.27, 3.24, 3.24, 7.21, 6.13, 9.49, 8.23, 8.66, // @ A-O
  6.63, 8.66, 7.64, 6.98, 6.72, 8.05, 7.52, 10.88, 7.54, 6.72, 7.54, 4.29, 3.71, 4.29, 9.22, 5.5, // P-Z [ \ ] ^ _
  5.5, 6.74, 6.98, 6.05, 6.98, 6.77, 3.87, 6.98, 6.97, 3.06, 3.06, 6.37, 3.06, 10.72, 6.97, 6.73, // ` a-o
  6.98, 6.98, 4.52, 5.73, 4.31, 6.97, 6.51, 9, 6.51, 6.51, 5.77, 7, 3.71, 7, 9.22, // p-z { | } ~
] as const;
const AVERAGE_WIDTH = 7;
const WIDE_WIDTH = 11;

/** East Asian wide and full-width ranges, and the emoji planes: one em each. */
function isWide(cp: number): boolean {
  return (
    (cp >= 0x1100 && cp <= 0x115f) ||
    (cp >= 0x2e80 && cp <= 0xa4cf) ||
    (cp >= 0xac00 && cp <= 0xd7a3) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0xfe30 && cp <= 0xfe4f) ||
    (cp >= 0xff00 && cp <= 0xff60) ||
    (cp >= 0xffe0 && cp <= 0xffe6) ||
    cp >= 0x1f300
  );
}

/** Zero-width: combining marks, joiners, variation selectors. */
function isZeroWidth(cp: number): boolean {
  return (
    (cp >= 0x0300 && cp <= 0x036f) || (cp >= 0x200b && cp <= 0x200f) || (cp >= 0xfe00 && cp <= 0xfe0f) || cp === 0xfeff
  );
}

export function textWidth(text: string): number {
  let width = 0;
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (cp >= 0x20 && cp <= 0x7e) width += ASCII_WIDTHS[cp - 0x20]!;
    else if (isZeroWidth(cp) || cp < 0x20) continue;
    else width += isWide(cp) ? WIDE_WIDTH : AVERAGE_WIDTH;
  }
  return Math.round(width * 100) / 100;
}
