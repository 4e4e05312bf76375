/**
 * Tutorlane's server: reads the configuration, opens and migrates the database, serves the app
 * (src/server/app.ts: the API, pages and assets, one Hono pipeline) on one port, and shuts down
 * cleanly on SIGTERM or SIGINT. Started by main.ts.
 */

import type { Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { createAdaptorServer } from '@hono/node-server';
import { WebSocketServer } from 'ws';
import { createApp, createServices } from './app';
import { startClassJobs } from './classes/class-jobs';
import { ConfigError, loadConfig } from './config/config';
import { DataDirLockedError } from './db/data-dir-lock';
import { startDatabase } from './db/database';
import { startLessonJobs } from './lessons/lesson-jobs';
import { startReminders } from './lessons/reminders';
import { closeLogs, createLogger, readableDestination } from './logging/logger';
import { startMaintenance } from './maintenance/cleanup';
import { lessonLine } from './messages/messages';
import { startUnreadMail } from './messages/unread-mail';
import { startLedgerCheckpoints } from './money/ledger-checkpoints';
import { inviteToReview } from './reviews/review-invites';

const SHUTDOWN_TIMEOUT_MS = 10_000;

export async function startServer(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  // A person at a terminal reads lines, and only the requests that need their attention; files,
  // pipes and log collectors get every request as JSON.
  const terminal = process.stdout.isTTY === true;
  const logger = createLogger({
    level: config.logLevel,
    ...(terminal ? { destination: await readableDestination() } : {}),
  });
  const fail = async (message: string) => {
    process.stderr.write(`${message}\n`);
    await closeLogs(logger);
    process.exit(1);
  };

  // Signals are taken from the start. One that comes while the database opens or migrates (a first
  // start takes seconds) lets that finish, then closes it and exits 0, instead of killing the
  // process mid-write.
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    setTimeout(() => {
      process.stderr.write('shutdown took too long; exiting\n');
      process.exit(1);
    }, SHUTDOWN_TIMEOUT_MS).unref();
    void shutdown(signal);
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);

  logger.info({ database: config.databaseUrl ? 'postgres' : 'embedded' }, 'opening the database');
  let database: ReturnType<typeof startDatabase>;
  try {
    // A second server on the same DATA_DIR stops here, before it has answered anything.
    database = startDatabase({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      templateFile: fileURLToPath(new URL('../../dist/db-template.tar.gz', import.meta.url)),
    });
  } catch (error) {
    if (error instanceof DataDirLockedError) return fail(error.message);
    throw error;
  }

  const clientDir = fileURLToPath(new URL('../../dist/client', import.meta.url));
  const deps = { config, database, logger, clientDir, logEveryRequest: !terminal };
  const services = createServices(deps);
  const app = createApp(deps, services);

  // Requests still being worked on at shutdown are finished before the database closes: a client
  // that hangs up does not stop its request's work, and that work needs the database.
  let inFlight = 0;
  let drained: (() => void) | undefined;
  const handle = async (request: Request, env: unknown) => {
    inFlight += 1;
    try {
      return await app.fetch(request, env);
    } finally {
      inFlight -= 1;
      if (inFlight === 0) drained?.();
    }
  };

  // The port opens at once: the pages and assets that need no database go out from the first
  // moment, the rest waits in the app until the database is open.
  // WebSocket upgrades (the live channel) go through the same Hono app, with `ws` doing the protocol.
  const server = createAdaptorServer({
    fetch: handle,
    websocket: { server: new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 }) },
  }) as Server; // node:http's, as no other createServer is given
  // An idle kept-alive connection stays open longer than clients and proxies keep theirs (60 s is
  // common), so that it is always the client that closes it: with Node's 5 s, a request sent on
  // a connection the server was closing at that moment failed with ECONNRESET.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  server.listen(config.port, config.host);
  const listening = new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });

  let stopMaintenance = async () => {};
  let running = false;
  const failure = (promise: Promise<unknown>) =>
    promise.then(
      () => undefined,
      (error: NodeJS.ErrnoException) => error,
    );
  const [listenError, openError] = await Promise.all([failure(listening), failure(database.ready)]);
  if (listenError) {
    await database.close().catch(() => {});
    return fail(
      listenError.code === 'EADDRINUSE'
        ? `Port ${config.port} on ${config.host} is already in use. Set PORT to a free port.`
        : `The server could not start: ${listenError.message}`,
    );
  }
  if (openError) return fail(`Could not open the database: ${openError.message}`);
  if (stopping) return;
  running = true;
  services.mailer.start();
  await services.live.start();
  const stopHousekeeping = startMaintenance(database, logger);
  // Mails are in each recipient's language, else in the school's default in effect.
  const defaultLanguage = () => services.settings.peek()?.defaultLanguage ?? config.defaultLanguage;
  const stopLessonJobs = startLessonJobs(
    {
      db: database.db,
      mailer: services.mailer,
      conversations: { lessonLine },
      live: services.live,
      mail: { appUrl: config.appUrl, mailFrom: config.mailFrom, defaultLanguage },
      payments: config.payments,
      // A student is asked to review the tutor after their first and third completed lesson.
      afterCompleted: (trx, completed) =>
        inviteToReview({ mailer: services.mailer, appUrl: config.appUrl, defaultLanguage }, trx, completed),
    },
    logger,
    undefined,
    services.metrics.observeJob,
  );
  // Each reminder is sent once even with several servers: the database decides (./lessons/reminders.ts).
  const stopReminders = startReminders(
    {
      db: database.db,
      mailer: services.mailer,
      mail: { appUrl: config.appUrl, mailFrom: config.mailFrom, defaultLanguage },
    },
    logger,
    undefined,
    services.metrics.observeJob,
  );
  // A class with too few students a day before it starts is called off; the others are held.
  const stopClassJobs = startClassJobs(
    {
      db: database.db,
      mailer: services.mailer,
      mail: { appUrl: config.appUrl, mailFrom: config.mailFrom, defaultLanguage },
      payments: config.payments,
    },
    logger,
    undefined,
    services.metrics.observeJob,
  );
  // The finance totals read the newest checkpoint plus the entries after it.
  const stopCheckpoints = startLedgerCheckpoints(database.db, logger, undefined, services.metrics.observeJob);
  services.backups.start();
  const stopUnreadMail = startUnreadMail(
    {
      db: database.db,
      mailer: services.mailer,
      appUrl: config.appUrl,
      requireTwoFactor: config.adminTwoFactor === 'required',
      defaultLanguage,
    },
    logger,
    undefined,
    services.metrics.observeJob,
  );
  // Each resolves once its pass in progress is done: the database closes after the last one.
  stopMaintenance = async () => {
    await Promise.all([
      stopHousekeeping(),
      stopLessonJobs(),
      stopClassJobs(),
      stopReminders(),
      stopCheckpoints(),
      stopUnreadMail(),
      services.backups.stop(),
    ]);
  };
  // The public URL is the one to open: mailed links and origin checks use it.
  logger.info(
    { url: config.appUrl, host: config.host, port: config.port, database: database.kind },
    'Tutorlane is listening',
  );
  process.stdout.write(`\nTutorlane is running at ${config.appUrl}\n\n`);

  async function shutdown(signal: NodeJS.Signals) {
    const started = await database.ready.then(
      () => true,
      () => false,
    );
    if (!started) return;
    if (running) logger.info({ signal }, 'shutting down: finishing requests in flight');
    else logger.info({ signal }, 'stopped during start-up; closing the database');
    // Live sockets close at once (1012: restarting), so their tabs reconnect, here or elsewhere.
    await services.live.stop();
    // Keep-alive connections that go idle after their last response are closed as we go.
    const sweep = setInterval(() => server.closeIdleConnections(), 100);
    server.close(async () => {
      clearInterval(sweep);
      if (inFlight > 0) await new Promise<void>((resolve) => (drained = resolve));
      try {
        await stopMaintenance();
        services.health.stop();
        await services.mailer.stop();
        await database.close();
        logger.info('database closed; bye');
        await closeLogs(logger);
        process.exit(0);
      } catch (error) {
        logger.error({ err: error }, 'closing the database failed');
        await closeLogs(logger);
        process.exit(1);
      }
    });
    server.closeIdleConnections();
  }
}
