import type { Monitor } from '../monitors/index.ts';
import type { BadgeColor, BadgeFace } from './badge.types.ts';

/** Longest label shown: a longer monitor name is cut with an ellipsis (a badge is a line of a README). */
const LABEL_MAX = 60;

/** A name as a badge's label: trimmed, cut with an ellipsis beyond LABEL_MAX characters. */
export function badgeLabel(text: string): string {
  const chars = [...text.trim()];
  return chars.length > LABEL_MAX ? `${chars.slice(0, LABEL_MAX - 1).join('')}…` : chars.join('');
}

/** The status badge: the monitor's name, then up, degraded, down, paused, pending or maintenance. */
export function statusFace(monitor: Monitor, inMaintenance: boolean): BadgeFace {
  const name = badgeLabel(monitor.name);
  if (monitor.paused || monitor.status === 'paused') return { label: name, message: 'paused', color: 'lightgrey' };
  if (inMaintenance) return { label: name, message: 'maintenance', color: 'blue' };
  if (monitor.status === 'up') return { label: name, message: 'up', color: 'brightgreen' };
  if (monitor.status === 'down') return { label: name, message: 'down', color: 'red' };
  if (monitor.status === 'degraded') return { label: name, message: 'degraded', color: 'yellow' };
  return { label: name, message: 'pending', color: 'lightgrey' };
}

/** Cut (never rounded up) to two decimals: 99.996 % of uptime is not "100%". */
export function formatPercent(percent: number): string {
  return `${Math.floor(percent * 100 + 1e-9) / 100}%`;
}

function uptimeColor(percent: number): BadgeColor {
  if (percent >= 99.9) return 'brightgreen';
  if (percent >= 99) return 'green';
  if (percent >= 97) return 'yellowgreen';
  if (percent >= 95) return 'yellow';
  if (percent >= 90) return 'orange';
  return 'red';
}

export function uptimeFace(percent: number | null, days: number): BadgeFace {
  const text = `uptime ${days}d`;
  if (percent === null) return { label: text, message: 'no data', color: 'lightgrey' };
  return { label: text, message: formatPercent(percent), color: uptimeColor(percent) };
}

function responseColor(ms: number): BadgeColor {
  if (ms < 200) return 'brightgreen';
  if (ms < 500) return 'green';
  if (ms < 1000) return 'yellow';
  if (ms < 2000) return 'orange';
  return 'red';
}

export function responseTimeFace(ms: number | null): BadgeFace {
  if (ms === null) return { label: 'response time', message: 'no data', color: 'lightgrey' };
  return { label: 'response time', message: `${Math.round(ms)} ms`, color: responseColor(ms) };
}
