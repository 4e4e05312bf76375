/** Starts Tutorlane (`npm start` runs this, bundled as dist/server/main.js). */
import { startServer } from './server';

await startServer();
