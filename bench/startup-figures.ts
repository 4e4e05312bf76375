/**
 * Figures 6 and 7 of issue #6, start-up, timed from spawn to the first 200 of GET /api/health:
 *   7  first start on an empty data folder (the embedded database created and migrated), <= 5 s;
 *   6  start with that folder existing, against `node -e` starting a bare node:http server,
 *      interleaved rounds, <= 6x.
 */
import { startTutorlane, tempDir } from './processes';
import { startBareServer } from './reference-servers';
import { type FigureResult, status } from './report';
import { formatSpread, ratios, spread } from './stats';

const FIRST_START_ROUNDS = 3;
const RESTART_ROUNDS = 5;
const FIRST_START_BUDGET_MS = 5000;
const RESTART_BUDGET_RATIO = 6;

export async function measureStartupFigures(): Promise<FigureResult & { dataDir: string }> {
  // Figure 7: every round on a new, empty folder.
  const firstStarts: number[] = [];
  let dataDir = '';
  for (let round = 0; round < FIRST_START_ROUNDS; round++) {
    dataDir = tempDir('startup');
    const server = await startTutorlane({ dataDir });
    firstStarts.push(server.startupMs);
    await server.stop();
  }

  // Figure 6: the last folder again (existing database), against a bare server's start.
  const bareBody = JSON.stringify({ status: 'ok', database: 'embedded' });
  const restarts: number[] = [];
  const bareStarts: number[] = [];
  for (let round = 0; round < RESTART_ROUNDS; round++) {
    const bare = await startBareServer({ body: bareBody });
    bareStarts.push(bare.startupMs);
    await bare.stop();
    const server = await startTutorlane({ dataDir });
    restarts.push(server.startupMs);
    await server.stop();
  }

  const first = spread(firstStarts);
  const restart = spread(restarts);
  const bare = spread(bareStarts);
  const ratio = spread(ratios(restarts, bareStarts));
  return {
    rows: [
      {
        id: '6',
        figure: 'start-up to first 200, existing data dir',
        measured: formatSpread(restart, ' ms', 0),
        reference: `node -e bare server ${formatSpread(bare, ' ms', 0)}`,
        ratio: formatSpread(ratio, 'x', 2),
        budget: `<= ${RESTART_BUDGET_RATIO}x`,
        status: status(ratio.median <= RESTART_BUDGET_RATIO),
      },
      {
        id: '7',
        figure: 'first start, empty data dir (create + migrate)',
        measured: formatSpread(first, ' ms', 0),
        reference: '',
        ratio: '',
        budget: `<= ${FIRST_START_BUDGET_MS} ms`,
        status: status(first.median <= FIRST_START_BUDGET_MS),
      },
    ],
    findings: [
      '6/7: times are from spawn to the first 200, polled every 5 ms on fresh connections',
      `7: first starts in order: ${firstStarts.map((ms) => ms.toFixed(0)).join(', ')} ms ` +
        "(the first one also fills tsx's compile cache when it is cold)",
    ],
    details: { firstStartMs: firstStarts, restartMs: restarts, bareStartMs: bareStarts },
    dataDir,
  };
}
