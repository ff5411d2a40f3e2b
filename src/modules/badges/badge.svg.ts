import { textWidth } from './badge.text-width.ts';
import type { BadgeColor, BadgeFace } from './badge.types.ts';

/** shields.io's palette for its named colours. */
const HEX: Record<BadgeColor, string> = {
  brightgreen: '#4c1',
  green: '#97ca00',
  yellowgreen: '#a4a61d',
  yellow: '#dfb317',
  orange: '#fe7d37',
  red: '#e05d44',
  blue: '#007ec6',
  lightgrey: '#9f9f9f',
};
const LABEL_BACKGROUND = '#555';
/** Space left and right of each text. */
const PADDING = 5;

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** Text and attribute values: markup characters escaped, characters XML 1.0 forbids dropped. */
export function escapeXml(text: string): string {
  return text
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '') // eslint-disable-line no-control-regex -- XML 1.0 forbids these
    .replace(/[&<>"']/g, (c) => XML_ESCAPES[c]!);
}

/** The parts of a badge in px: each side is its text's width plus padding. */
export function badgeLayout(face: BadgeFace): {
  labelWidth: number;
  messageWidth: number;
  labelTextWidth: number;
  messageTextWidth: number;
  width: number;
} {
  const labelTextWidth = face.label === '' ? 0 : textWidth(face.label);
  const messageTextWidth = textWidth(face.message);
  const labelWidth = face.label === '' ? 0 : Math.ceil(labelTextWidth) + 2 * PADDING;
  const messageWidth = Math.ceil(messageTextWidth) + 2 * PADDING;
  return { labelWidth, messageWidth, labelTextWidth, messageTextWidth, width: labelWidth + messageWidth };
}

/**
 * A flat badge in shields.io's look: 20 px high, the label on grey, the message on its colour, Verdana 11px with a
 * shadow. Texts are drawn at 10× and scaled down (finer positions), each with a `textLength` so that the box fits
 * whatever font the viewer has. `role="img"`, `aria-label` and `<title>` say "label: message" to screen readers and
 * as a tooltip; the drawn texts are hidden from them.
 */
export function renderBadgeSvg(face: BadgeFace): string {
  const { labelWidth, messageWidth, labelTextWidth, messageTextWidth, width } = badgeLayout(face);
  const label = escapeXml(face.label);
  const message = escapeXml(face.message);
  const accessible = face.label === '' ? message : `${label}: ${message}`;
  const text = (content: string, centre: number, length: number) =>
    `<text aria-hidden="true" x="${centre * 10}" y="150" fill="#010101" fill-opacity=".3" transform="scale(.1)" textLength="${Math.round(length * 10)}">${content}</text>` +
    `<text aria-hidden="true" x="${centre * 10}" y="140" transform="scale(.1)" fill="#fff" textLength="${Math.round(length * 10)}">${content}</text>`;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="20" role="img" aria-label="${accessible}">` +
    `<title>${accessible}</title>` +
    `<linearGradient id="s" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/><stop offset="1" stop-opacity=".1"/></linearGradient>` +
    `<clipPath id="r"><rect width="${width}" height="20" rx="3" fill="#fff"/></clipPath>` +
    `<g clip-path="url(#r)">` +
    (labelWidth > 0 ? `<rect width="${labelWidth}" height="20" fill="${LABEL_BACKGROUND}"/>` : '') +
    `<rect x="${labelWidth}" width="${messageWidth}" height="20" fill="${HEX[face.color]}"/>` +
    `<rect width="${width}" height="20" fill="url(#s)"/></g>` +
    `<g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" text-rendering="geometricPrecision" font-size="110">` +
    (labelWidth > 0 ? text(label, labelWidth / 2, labelTextWidth) : '') +
    text(message, labelWidth + messageWidth / 2, messageTextWidth) +
    `</g></svg>`
  );
}

/** The same badge in shields.io's endpoint shape (https://shields.io/badges/endpoint-badge). */
export function shieldsEndpointJson(face: BadgeFace): {
  schemaVersion: 1;
  label: string;
  message: string;
  color: string;
} {
  return { schemaVersion: 1, label: face.label, message: face.message, color: face.color };
}
