/**
 * GET /metrics: what a Prometheus server scrapes, in its text format (prom-client). It exists only
 * when METRICS_TOKEN is set, and answers only a request that carries it as a bearer token;
 * anything else gets the same 404 as a path that does not exist, so the endpoint is not even
 * discoverable. Each app has its own registry (tests build several apps in one process).
 *
 * HTTP requests are counted by the route that answered them (`/api/tutors/:id`), never by the raw
 * URL: ids in paths would make a series per tutor and grow without end.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import { type Kysely, sql } from 'kysely';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { JOINABLE_STATUSES } from '../../shared/lessons/lesson-states';
import { ROOM_CLOSES_AFTER_MS, ROOM_OPENS_BEFORE_MS } from '../../shared/lessons/room-rules';
import type { BackupObserver } from '../backup/backups';
import type { DB } from '../db/schema';
import type { AppEnv } from '../http/app-env';
import type { Logger } from '../logging/logger';
import { outboxBacklog } from '../mail/outbox-backlog';
import type { PaymentObserver } from '../money/wallet-routes';
import type { MinuteJobObserver } from '../platform/minute-job';

export const METRICS_PATH = '/metrics';

/** The minute jobs, named so their series exist (at 0) before their first pass. */
export const MINUTE_JOBS = ['lessons', 'classes', 'reminders', 'ledger'] as const;

export interface Metrics {
  /** Counts and times every request; first in the pipeline. */
  httpMiddleware: MiddlewareHandler<AppEnv>;
  /** The scrape: 404 (by passing on) unless the bearer token is right. */
  route: MiddlewareHandler<AppEnv>;
  observeJob: MinuteJobObserver;
  backups: BackupObserver;
  payments: PaymentObserver;
  /** When the newest backup was taken, as known at start (the newest scheduled file). */
  backupKnown(at: Date | null): void;
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Compares in constant time: hashing first gives both sides one length. */
export function tokenMatches(given: string | undefined, expected: string): boolean {
  return given !== undefined && timingSafeEqual(digest(given), digest(expected));
}

export function createMetrics(deps: {
  token: string | undefined;
  db: Kysely<DB>;
  liveConnections: () => number;
  logger: Logger;
}): Metrics {
  const registry = new Registry();
  if (deps.token) collectDefaultMetrics({ register: registry });
  const registers = [registry];

  const requests = new Counter({
    name: 'tutorlane_http_requests_total',
    help: 'HTTP requests answered, by route pattern, method and status',
    labelNames: ['route', 'method', 'status'] as const,
    registers,
  });
  const durations = new Histogram({
    name: 'tutorlane_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by route pattern, method and status',
    labelNames: ['route', 'method', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  });
  new Gauge({
    name: 'tutorlane_live_channels_open',
    help: 'Live channels (WebSockets) open on this server',
    registers,
    collect() {
      this.set(deps.liveConnections());
    },
  });
  const rooms = new Gauge({
    name: 'tutorlane_rooms_in_progress',
    help: 'Lesson rooms open now that someone has joined',
    registers,
  });
  const outboxWaiting = new Gauge({
    name: 'tutorlane_mail_outbox_waiting',
    help: 'Mails waiting to be delivered (first try or retrying)',
    registers,
  });
  const outboxFailed = new Gauge({
    name: 'tutorlane_mail_outbox_failed',
    help: 'Mails given up after every attempt',
    registers,
  });
  const outboxOldest = new Gauge({
    name: 'tutorlane_mail_outbox_oldest_waiting_age_seconds',
    help: 'Age of the oldest mail waiting to be delivered; 0 when none waits',
    registers,
  });
  const databaseUp = new Gauge({
    name: 'tutorlane_database_up',
    help: '1 when the database answered this scrape’s queries, 0 when it did not',
    registers,
  });
  const jobRuns = new Counter({
    name: 'tutorlane_minute_job_runs_total',
    help: 'Passes of the minute jobs, by job',
    labelNames: ['job'] as const,
    registers,
  });
  const jobFailures = new Counter({
    name: 'tutorlane_minute_job_failures_total',
    help: 'Passes of the minute jobs that failed, by job',
    labelNames: ['job'] as const,
    registers,
  });
  // A pass that takes longer than its minute delays the next: the buckets reach past it.
  const jobSeconds = new Histogram({
    name: 'tutorlane_minute_job_duration_seconds',
    help: 'How long the passes of the minute jobs took, by job',
    labelNames: ['job'] as const,
    buckets: [0.01, 0.05, 0.1, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers,
  });
  for (const job of MINUTE_JOBS) {
    jobRuns.inc({ job }, 0);
    jobFailures.inc({ job }, 0);
  }
  const backupsTaken = new Counter({
    name: 'tutorlane_backups_total',
    help: 'Backups of the embedded store taken by this server (scheduled and downloaded)',
    registers,
  });
  const backupFailures = new Counter({
    name: 'tutorlane_backup_failures_total',
    help: 'Scheduled backups that failed',
    registers,
  });
  // Money taken and in no wallet: any increase is for an admin (the finance page lists them).
  const unappliedPayments = new Counter({
    name: 'tutorlane_unapplied_payments_total',
    help: 'Card payments this server found it could not credit to a wallet, kept for an admin',
    registers,
  });
  let lastBackup: Date | null = null;
  new Gauge({
    name: 'tutorlane_last_backup_age_seconds',
    help: 'Seconds since the newest backup of the embedded store; absent when none is known',
    registers,
    collect() {
      if (lastBackup) this.set((Date.now() - lastBackup.getTime()) / 1000);
    },
  });

  /** What only the database knows, read once per scrape. */
  async function readDatabase() {
    const now = Date.now();
    try {
      const [backlog, inRoom] = await Promise.all([
        outboxBacklog(deps.db),
        deps.db
          .selectFrom('lessons as l')
          .where('l.status', 'in', JOINABLE_STATUSES)
          .where('l.starts_at', '<=', new Date(now + ROOM_OPENS_BEFORE_MS))
          .where('l.ends_at', '>', new Date(now - ROOM_CLOSES_AFTER_MS))
          .where(({ exists, selectFrom }) =>
            exists(
              selectFrom('lesson_attendance as a')
                .select(sql`1`.as('one'))
                .whereRef('a.lesson_id', '=', 'l.id'),
            ),
          )
          .select(sql<number>`count(*)::int`.as('count'))
          .executeTakeFirstOrThrow(),
      ]);
      outboxWaiting.set(backlog.waiting);
      outboxFailed.set(backlog.failed);
      outboxOldest.set(backlog.oldest ? Math.max(0, (now - backlog.oldest.getTime()) / 1000) : 0);
      rooms.set(inRoom.count);
      databaseUp.set(1);
    } catch (error) {
      databaseUp.set(0);
      deps.logger.warn({ err: (error as Error).message }, 'metrics: the database did not answer');
    }
  }

  return {
    httpMiddleware: async (c, next) => {
      const started = performance.now();
      try {
        await next();
      } finally {
        const labels = { route: routePath(c), method: c.req.method, status: String(c.res.status) };
        requests.inc(labels);
        durations.observe(labels, (performance.now() - started) / 1000);
      }
    },
    route: async (c, next) => {
      const header = c.req.header('authorization');
      const given = header?.startsWith('Bearer ') ? header.slice('Bearer '.length) : undefined;
      if (!deps.token || !tokenMatches(given, deps.token)) return next();
      await readDatabase();
      return c.body(await registry.metrics(), 200, {
        'Content-Type': registry.contentType,
        'Cache-Control': 'no-store',
      });
    },
    observeJob: (job, outcome, seconds) => {
      jobRuns.inc({ job });
      jobSeconds.observe({ job }, seconds);
      if (outcome === 'failed') jobFailures.inc({ job });
    },
    backups: {
      taken(at) {
        backupsTaken.inc();
        lastBackup = at;
      },
      failed() {
        backupFailures.inc();
      },
    },
    payments: {
      unapplied() {
        unappliedPayments.inc();
      },
    },
    backupKnown(at) {
      if (at && (!lastBackup || at > lastBackup)) lastBackup = at;
    },
  };
}
