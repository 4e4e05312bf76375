/**
 * Row 5, start-up, timed from spawn:
 *   5a  start with an existing data folder to the first 200 (GET /, the page a visitor opens: the
 *       server answers pages and assets while the database opens), against `node -e` starting a
 *       bare node:http server, interleaved rounds, <= 6x. The findings add when GET /api/health
 *       first says 200, the moment everything is served;
 *   5b  first start on an empty data folder (the embedded database created and migrated) to the
 *       first 200 of GET /api/health (everything served), <= 5 s.
 */
import { startTutorlane, tempDir } from './processes';
import { startBareServer } from './reference-servers';
import { type FigureResult, status } from './report';
import { full } from './settings';
import { formatSpread, ratios, spread } from './stats';

const FIRST_START_ROUNDS = full(3, 2);
const RESTART_ROUNDS = full(5, 2);
const FIRST_START_BUDGET_MS = 5000;
const RESTART_BUDGET_RATIO = 6;

export async function measureStartupFigures(): Promise<FigureResult> {
  // 5b: every round on a new, empty folder.
  const firstStarts: number[] = [];
  let dataDir = '';
  for (let round = 0; round < FIRST_START_ROUNDS; round++) {
    dataDir = tempDir('startup');
    const server = await startTutorlane({ dataDir });
    firstStarts.push(server.startupMs);
    await server.stop();
  }

  // 5a: the last folder again (existing database), against a bare server's start.
  const bareBody = JSON.stringify({ status: 'ok', database: 'embedded' });
  const restarts: number[] = [];
  const restartsReady: number[] = [];
  const bareStarts: number[] = [];
  for (let round = 0; round < RESTART_ROUNDS; round++) {
    const bare = await startBareServer({ body: bareBody });
    bareStarts.push(bare.startupMs);
    await bare.stop();
    const server = await startTutorlane({ dataDir });
    restarts.push(server.firstPageMs);
    restartsReady.push(server.startupMs);
    await server.stop();
  }

  const first = spread(firstStarts);
  const restart = spread(restarts);
  const bare = spread(bareStarts);
  const ratio = spread(ratios(restarts, bareStarts));
  const ready = spread(restartsReady);
  const readyRatio = spread(ratios(restartsReady, bareStarts));
  return {
    rows: [
      {
        id: '5a',
        figure: 'start-up to first 200 (GET /), existing data dir',
        measured: formatSpread(restart, ' ms', 0),
        reference: `node -e bare server ${formatSpread(bare, ' ms', 0)}`,
        ratio: formatSpread(ratio, 'x', 2),
        budget: `<= ${RESTART_BUDGET_RATIO}x`,
        status: status(ratio.median <= RESTART_BUDGET_RATIO),
      },
      {
        id: '5b',
        figure: 'first start, empty data dir (create + migrate)',
        measured: formatSpread(first, ' ms', 0),
        reference: '',
        ratio: '',
        budget: `<= ${FIRST_START_BUDGET_MS} ms`,
        status: status(first.median <= FIRST_START_BUDGET_MS),
      },
    ],
    findings: [
      '5: times are from spawn to the first 200, polled every 5 ms on fresh connections',
      `5a: everything served (GET /api/health says 200: database open, API up) after ${formatSpread(ready, ' ms', 0)}, ` +
        `${formatSpread(readyRatio, 'x', 2)} the bare server; until then the API waits and pages and assets are already served`,
      `5b: first starts in order: ${firstStarts.map((ms) => ms.toFixed(0)).join(', ')} ms`,
    ],
    details: {
      firstStartMs: firstStarts,
      restartMs: restarts,
      restartReadyMs: restartsReady,
      bareStartMs: bareStarts,
    },
  };
}
