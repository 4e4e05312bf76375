/**
 * Structured logs (pino, one JSON object per line). Anything that could carry a password, a token
 * or a cookie is redacted by path, and request logs never include headers or bodies at all.
 */
import { type Logger, pino } from 'pino';

export type { Logger };

const redactedPaths = [
  'password',
  'newPassword',
  'token',
  'cookie',
  'authorization',
  'secret',
  '*.password',
  '*.newPassword',
  '*.token',
  '*.cookie',
  '*.authorization',
  '*.secret',
  'headers.cookie',
  'headers.authorization',
  'req.headers.cookie',
  'req.headers.authorization',
];

export function createLogger(options: { level: string; destination?: pino.DestinationStream }): Logger {
  return pino(
    {
      level: options.level,
      base: { service: 'tutorlane' },
      redact: { paths: redactedPaths, censor: '[redacted]' },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    options.destination,
  );
}
