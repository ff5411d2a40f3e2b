import pino, { type Logger } from 'pino';

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
  const base = { level: options.level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' }, base: undefined };
  if (options.destination) return pino(base, options.destination as pino.DestinationStream);
  if (options.pretty) {
    return pino({
      ...base,
      transport: { target: 'pino-pretty', options: { colorize: true, translateTime: 'SYS:HH:MM:ss.l' } },
    });
  }
  return pino(base);
}
