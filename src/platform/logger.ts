import pino, { type Logger } from 'pino';
import { redactText } from './redact.ts';

export type { Logger };

export interface LoggerOptions {
  level: string;
  pretty: boolean;
  /** Where logs go; tests pass a stream to read what was logged. */
  destination?: NodeJS.WritableStream;
}

/** Paths whose values must never reach a log line. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  'authorization',
  '*.authorization',
  'api_key',
  '*.api_key',
  'key',
  '*.key',
  'token',
  '*.token',
  'secret',
  '*.secret',
  'signing_secret',
  '*.signing_secret',
  'password',
  '*.password',
  'bot_token',
  '*.bot_token',
  'integration_key',
  '*.integration_key',
  'config.bot_token',
  'config.api_key',
  'config.integration_key',
];

export function createLogger(options: LoggerOptions): Logger {
  const base = {
    level: options.level,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    base: undefined,
    // Every line, as written (children included): URL passwords and secret query values wherever they
    // occur (a logged URL, an error message, a stack), which the key paths above cannot reach.
    hooks: { streamWrite: redactText },
  };
  if (options.destination) return pino(base, options.destination as pino.DestinationStream);
  if (options.pretty) {
    return pino({
      ...base,
      transport: { target: 'pino-pretty', options: { colorize: true, translateTime: 'SYS:HH:MM:ss.l' } },
    });
  }
  return pino(base);
}

/**
 * The logger for the one line each request writes. Its fields are fixed (id, method, url, route, status,
 * duration) and hold no redacted path, so it skips the path walk (measured at ~7 % of a fast read's CPU);
 * the line still passes the streamWrite redaction, which masks secret query values in the url.
 */
export function createRequestLineLogger(logger: Logger): Logger {
  return logger.child({}, { redact: { paths: [] } });
}
