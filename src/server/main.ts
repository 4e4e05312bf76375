/**
 * Starts Tutorlane: reads the configuration, opens and migrates the database, serves the API and
 * the browser app on one port, and shuts down cleanly on SIGTERM or SIGINT.
 */
import { createServer, type ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';
import { getRequestListener } from '@hono/node-server';
import { ConfigError, loadConfig } from './config/config';
import { DataDirLockedError } from './db/data-dir-lock';
import { openDatabase } from './db/database';
import { HEALTH_PATH, healthAnswer } from './health/health-routes';
import { securityHeaderList } from './http/security-headers';
import { createLogger } from './logging/logger';
import { startMaintenance } from './maintenance/cleanup';

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
  const logger = createLogger({ level: config.logLevel });

  // The app's modules load while the database opens: a restart waits for the slower of the two.
  const appModule = import('./app');
  let database: Awaited<ReturnType<typeof openDatabase>>;
  try {
    database = await openDatabase({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      templateFile: fileURLToPath(new URL('../../dist/db-template.tar.gz', import.meta.url)),
    });
  } catch (error) {
    if (error instanceof DataDirLockedError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    process.stderr.write(`Could not open the database: ${(error as Error).message}\n`);
    process.exit(1);
  }

  const clientDir = fileURLToPath(new URL('../../dist/client', import.meta.url));
  const { createApp, createServices } = await appModule;
  const deps = { config, database, logger, clientDir };
  const services = createServices(deps);
  const app = createApp(deps, services);
  services.mailer.start();
  const stopMaintenance = startMaintenance(database.db, logger);

  // Health checks are answered before the app from the monitor's cached state: load balancers ask
  // often, and the answer must cost next to nothing (issue #6). Everything else goes to Hono.
  const honoListener = getRequestListener(app.fetch);
  const securityHeaders = Object.fromEntries(
    securityHeaderList({ https: config.secure, recaptcha: Boolean(config.recaptcha) }),
  );
  const answers = [true, false].map((healthy) => {
    const answer = healthAnswer(database.kind, healthy);
    return { ...answer, headers: Object.entries({ ...securityHeaders, ...answer.headers }).flat() };
  });
  const answerHealth = (res: ServerResponse, healthy: boolean) => {
    const answer = answers[healthy ? 0 : 1] as (typeof answers)[number];
    res.writeHead(answer.status, answer.headers);
    res.end(answer.body);
  };
  const server = createServer((req, res) => {
    if (req.url === HEALTH_PATH && req.method === 'GET') {
      const known = services.health.fresh();
      if (known === undefined) void services.health.current().then((healthy) => answerHealth(res, healthy));
      else answerHealth(res, known);
      return;
    }
    void honoListener(req, res);
  });
  server.listen(config.port, config.host, () => {
    // The public URL is the one to open: mailed links and origin checks use it.
    logger.info(
      { url: config.appUrl, host: config.host, port: config.port, database: database.kind },
      'Tutorlane is listening',
    );
    process.stdout.write(`\nTutorlane is running at ${config.appUrl}\n\n`);
  });

  server.on('error', async (error: NodeJS.ErrnoException) => {
    process.stderr.write(
      error.code === 'EADDRINUSE'
        ? `Port ${config.port} on ${config.host} is already in use. Set PORT to a free port.\n`
        : `The server could not start: ${error.message}\n`,
    );
    await database.close();
    process.exit(1);
  });

  let shuttingDown = false;
  const shutdown = (signal: string) => {
    if (shuttingDown) return;
    shuttingDown = true;
    logger.info({ signal }, 'shutting down: finishing requests in flight');
    const force = setTimeout(() => {
      logger.error('shutdown took too long; exiting');
      process.exit(1);
    }, SHUTDOWN_TIMEOUT_MS);
    force.unref();
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
        process.exit(0);
      } catch (error) {
        logger.error({ err: error }, 'closing the database failed');
        process.exit(1);
      }
    });
    server.closeIdleConnections();
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

await startServer();
