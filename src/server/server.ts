/**
 * Tutorlane's server: reads the configuration, opens and migrates the database, serves the API and
 * the browser app on one port, and shuts down cleanly on SIGTERM or SIGINT. Started by main.ts.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';
import { getRequestListener } from '@hono/node-server';
import { ConfigError, loadConfig } from './config/config';
import { DataDirLockedError } from './db/data-dir-lock';
import { openDatabase } from './db/database';
import { HEALTH_PATH, healthAnswer } from './health/health-routes';
import { createPageSite, servableWithoutDatabase } from './http/page-site';
import { securityHeaderList } from './http/security-headers';
import { createLogger, flushLogs } from './logging/logger';
import { startMaintenance } from './maintenance/cleanup';

const SHUTDOWN_TIMEOUT_MS = 10_000;

export async function startServer(): Promise<void> {
  // Signals are taken from the very start. One that comes while the database opens or migrates
  // (a first start can take seconds) lets that finish, then closes it with a CHECKPOINT and exits
  // 0, instead of killing the process mid-write. Once the server listens, `stopServing` takes over.
  let stopSignal: NodeJS.Signals | undefined;
  let stopServing: ((signal: NodeJS.Signals) => void) | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopSignal) return;
    stopSignal = signal;
    const force = setTimeout(() => {
      process.stderr.write('shutdown took too long; exiting\n');
      process.exit(1);
    }, SHUTDOWN_TIMEOUT_MS);
    force.unref();
    stopServing?.(signal);
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);

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
  const logger = createLogger({ level: config.logLevel });

  // The port opens at once and the pages and assets that need no database go out from the first
  // moment (issue #6, start-up to first 200); the API, signed-in pages and health checks wait until
  // the database is open and the app is built. The app's modules load while the database opens.
  const appModule = import('./app');
  logger.info({ database: config.databaseUrl ? 'postgres' : 'embedded' }, 'opening the database');
  // The data folder lock is taken before the first await inside, so a second server on the same
  // DATA_DIR stops here, before it has answered anything.
  const opening = openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    templateFile: fileURLToPath(new URL('../../dist/db-template.tar.gz', import.meta.url)),
  });
  opening.catch((error: Error) => {
    process.stderr.write(
      error instanceof DataDirLockedError
        ? `${error.message}\n`
        : `Could not open the database: ${error.message}\n`,
    );
    process.exit(1);
  });

  const clientDir = fileURLToPath(new URL('../../dist/client', import.meta.url));
  const pageSite = getRequestListener(createPageSite({ config, logger, clientDir }).fetch);
  type Listener = (req: IncomingMessage, res: ServerResponse) => void;
  let serve: Listener | undefined;
  let becomeReady: (listener: Listener) => void = () => {};
  const ready = new Promise<Listener>((resolve) => {
    becomeReady = resolve;
  });
  const server = createServer((req, res) => {
    if (serve) serve(req, res);
    else if (servableWithoutDatabase(req)) void pageSite(req, res);
    else void ready.then((listener) => listener(req, res));
  });
  server.on('error', async (error: NodeJS.ErrnoException) => {
    process.stderr.write(
      error.code === 'EADDRINUSE'
        ? `Port ${config.port} on ${config.host} is already in use. Set PORT to a free port.\n`
        : `The server could not start: ${error.message}\n`,
    );
    await (await opening).close();
    process.exit(1);
  });
  server.listen(config.port, config.host);

  const database = await opening;
  const { createApp, createServices } = await appModule;
  const deps = { config, database, logger, clientDir };
  const services = createServices(deps);
  const app = createApp(deps, services);
  services.mailer.start();
  const stopMaintenance = startMaintenance(database, logger);

  // Health checks are answered before the app from the monitor's cached state: load balancers ask
  // often, and the answer must cost next to nothing (issue #6). Everything else goes to Hono.
  const honoListener = getRequestListener(app.fetch);
  const securityHeaders = Object.fromEntries(
    securityHeaderList({ https: config.secure, recaptcha: Boolean(config.recaptcha) }, 'api'),
  );
  const answers = [true, false].map((healthy) => {
    const answer = healthAnswer(database.kind, healthy);
    const body = Buffer.from(answer.body);
    // With its length known, the answer goes out in one piece rather than chunked.
    const headers = { ...securityHeaders, ...answer.headers, 'Content-Length': String(body.length) };
    return { ...answer, body, headers: Object.entries(headers).flat() };
  });
  const answerHealth = (res: ServerResponse, healthy: boolean) => {
    const answer = answers[healthy ? 0 : 1] as (typeof answers)[number];
    res.writeHead(answer.status, answer.headers);
    res.end(answer.body);
  };
  serve = (req, res) => {
    if (req.url === HEALTH_PATH && req.method === 'GET') {
      const known = services.health.fresh();
      if (known === undefined) void services.health.current().then((healthy) => answerHealth(res, healthy));
      else answerHealth(res, known);
      return;
    }
    void honoListener(req, res);
  };
  becomeReady(serve);

  // A signal that came during start-up is served now that there is something to close: requests
  // that waited for the database are answered, then the server shuts down as usual.
  stopServing = shutdown;
  if (stopSignal) {
    logger.info({ signal: stopSignal }, 'stopped during start-up; closing the database');
    return shutdown(stopSignal);
  }
  // The public URL is the one to open: mailed links and origin checks use it.
  logger.info(
    { url: config.appUrl, host: config.host, port: config.port, database: database.kind },
    'Tutorlane is listening',
  );
  process.stdout.write(`\nTutorlane is running at ${config.appUrl}\n\n`);

  function shutdown(signal: NodeJS.Signals) {
    logger.info({ signal }, 'shutting down: finishing requests in flight');
    // Keep-alive connections that go idle after their last response are closed as we go.
    const sweep = setInterval(() => server.closeIdleConnections(), 100);
    server.close(async () => {
      clearInterval(sweep);
      try {
        stopMaintenance();
        services.health.stop();
        await services.mailer.stop();
        await database.close();
        logger.info('database closed; bye');
        await flushLogs(logger);
        process.exit(0);
      } catch (error) {
        logger.error({ err: error }, 'closing the database failed');
        await flushLogs(logger);
        process.exit(1);
      }
    });
    server.closeIdleConnections();
  }
}
