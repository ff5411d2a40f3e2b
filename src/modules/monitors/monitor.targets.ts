import { isIP } from 'node:net';
import type { MonitorType } from './monitor.types.ts';

const HOSTNAME =
  /^(?=.{1,253}$)([a-zA-Z0-9_]([a-zA-Z0-9_-]{0,61}[a-zA-Z0-9])?)(\.[a-zA-Z0-9_]([a-zA-Z0-9_-]{0,61}[a-zA-Z0-9])?)*\.?$/;

export function isHost(host: string): boolean {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  return isIP(bare) !== 0 || HOSTNAME.test(host);
}

/** `host:port`, with IPv6 hosts in brackets. */
export function parseHostPort(value: string): { host: string; port: number } | null {
  const m = /^(\[[0-9a-fA-F:.]+\]|[^:[\]\s/]+):(\d{1,5})$/.exec(value);
  if (!m) return null;
  const port = Number(m[2]);
  if (port < 1 || port > 65_535 || !isHost(m[1]!)) return null;
  return { host: m[1]!.replace(/^\[|\]$/g, ''), port };
}

function httpUrl(value: string): URL | null {
  try {
    const u = new URL(value);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '' && isHost(u.hostname) ? u : null;
  } catch {
    return null;
  }
}

/** Checks a target for its monitor type; returns the issue, or null when it is valid. */
export function targetIssue(type: MonitorType, target: string): string | null {
  switch (type) {
    case 'http':
      return httpUrl(target) ? null : 'must be an http:// or https:// URL';
    case 'tls': {
      if (target.startsWith('https://'))
        return httpUrl(target) ? null : 'must be host:port, a host, or an https:// URL';
      return parseHostPort(target) || isHost(target) ? null : 'must be host:port, a host, or an https:// URL';
    }
    case 'tcp':
    case 'grpc':
      return parseHostPort(target) ? null : 'must be host:port';
    case 'dns':
      return isHost(target) && isIP(target) === 0 ? null : 'must be a domain name';
    case 'heartbeat':
      return null;
    case 'icmp':
      return isHost(target) ? null : 'must be a host name or IP address';
    case 'udp':
      return parseHostPort(target) ? null : 'must be host:port';
    case 'domain':
      return isHost(target) && isIP(target) === 0 && /\.[a-zA-Z0-9-]+\.?$/.test(target)
        ? null
        : 'must be a registered domain name, e.g. example.com';
    case 'smtp':
      return parseHostPort(target) || isHost(target)
        ? null
        : 'must be host:port or a host (port 25, 465 for implicit TLS)';
    case 'websocket':
      return wsUrl(target) ? null : 'must be a ws:// or wss:// URL';
    case 'postgres':
    case 'mysql':
    case 'redis':
      // host:port or a host (the type's port); never a URL: a connection URL carries the credentials, which go in
      // config.username/config.password (write-only) and must not land in the target, which is shown everywhere.
      if (/^[a-z][a-z0-9+.-]*:\/\//i.test(target))
        return 'must be host:port or a host, not a URL (database, username and password go in config)';
      return parseHostPort(target) || isHost(target) ? null : 'must be host:port or a host';
  }
}

function wsUrl(value: string): URL | null {
  try {
    const u = new URL(value);
    return (u.protocol === 'ws:' || u.protocol === 'wss:') && u.hostname !== '' && isHost(u.hostname) ? u : null;
  } catch {
    return null;
  }
}

/** What a monitor is called when the user gives no name. */
export function defaultName(type: MonitorType, target: string): string {
  if (type === 'http' || (type === 'tls' && target.startsWith('https://'))) return new URL(target).host;
  if (type === 'heartbeat') return 'Heartbeat';
  if (type === 'websocket') return new URL(target).host;
  return target;
}
