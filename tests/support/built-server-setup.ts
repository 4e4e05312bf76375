/**
 * Before the suites that start the real server (process, reliability): builds it when it is
 * missing or older than its sources, as `npm start` does, so that they run the artifact people
 * run, starting from the built database template as a first start does.
 */
import { ensureBuilt } from '../../scripts/ensure-built.mjs';

export default async function setup() {
  await ensureBuilt();
}
