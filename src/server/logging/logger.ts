/**
 * Structured logs (pino, one JSON object per line). Anything that could carry a password, a token
 * or a cookie is redacted by path, and request logs never include headers or bodies at all.
 *
 * Lines go to stdout without ever holding the process up. pino's default destination flushes
 * synchronously when the process exits and retries a full pipe until it drains: a server whose
 * supervisor had gone (stdout a socket nobody read) never finished its shutdown. Here the lines
 * are written asynchronously, a reader that stalls for a second loses lines instead of the server
 * waiting for it, and the shutdown waits at most a second for what is still buffered.
 */
import { Duplex } from 'node:stream';
import { type Logger, pino } from 'pino';
import SonicBoom from 'sonic-boom';

export type { Logger };

/** How long a stalled stdout is waited for before lines are dropped. */
export const OUTPUT_STALL_LIMIT_MS = 1000;
/** What is kept in memory for a slow reader; lines beyond it are dropped. */
const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;

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

/** stdout, written asynchronously; a reader that stops reading costs lines, never time. */
export function stdoutDestination(): SonicBoom {
  let stalledSince: number | undefined;
  const stream = new SonicBoom({
    fd: 1,
    sync: false,
    maxLength: MAX_BUFFERED_BYTES,
    retryEAGAIN: () => {
      stalledSince ??= Date.now();
      return Date.now() - stalledSince < OUTPUT_STALL_LIMIT_MS;
    },
  });
  stream.on('write', () => {
    stalledSince = undefined;
  });
  // A reader that went away (EPIPE) or gave up on is not the server's failure.
  stream.on('error', () => {});
  return stream;
}

/**
 * For a person at a terminal: one readable, coloured line per entry ("12:04:31 WARN: slow request
 * GET /api/tutors 200 1204 ms") instead of JSON, through pino's own formatter, loaded only then.
 * It writes to the same stall-proof stdout as the JSON lines.
 */
export async function readableDestination(): Promise<pino.DestinationStream> {
  const { default: pretty } = await import('pino-pretty');
  return pretty({
    destination: stdoutDestination(),
    colorize: true,
    translateTime: 'SYS:HH:MM:ss',
    ignore: 'pid,hostname,service,requestId,method,path,status,ms,client',
    singleLine: true,
    // A request reads as one sentence rather than a bag of fields.
    messageFormat: (entry, messageKey) =>
      typeof entry.method === 'string'
        ? `${entry[messageKey]}: ${entry.method} ${entry.path} ${entry.status} in ${Math.round(Number(entry.ms))} ms`
        : String(entry[messageKey]),
  });
}

/** The stream each logger writes to, for closeLogs. */
const destinations = new WeakMap<Logger, pino.DestinationStream>();

export function createLogger(options: { level: string; destination?: pino.DestinationStream }): Logger {
  const destination = options.destination ?? stdoutDestination();
  const logger = pino(
    {
      level: options.level,
      base: { service: 'tutorlane' },
      redact: { paths: redactedPaths, censor: '[redacted]' },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    destination,
  );
  destinations.set(logger, destination);
  return logger;
}

/**
 * Before the process exits: waits until every line is written, or OUTPUT_STALL_LIMIT_MS at most.
 * SonicBoom's flush() answers at once when lines are written as they come, so the stream is ended
 * instead: it closes once its last write has gone out.
 */
export function closeLogs(logger: Logger): Promise<void> {
  const destination = destinations.get(logger);
  // A line logged after this (work still settling as the process exits) would be written into a
  // closed stream, which throws: the last line is the one already written.
  logger.level = 'silent';
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, OUTPUT_STALL_LIMIT_MS);
    timer.unref();
    const done = () => {
      clearTimeout(timer);
      resolve();
    };
    // Both stdout destinations (SonicBoom, and the readable formatter in front of one) close once
    // their last line is out.
    if (destination instanceof SonicBoom || destination instanceof Duplex) {
      destination.once('close', done);
      try {
        destination.end();
      } catch {
        done(); // already closed: nothing is left to write
      }
    } else logger.flush(done);
  });
}
