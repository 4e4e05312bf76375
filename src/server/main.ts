/**
 * Starts Tutorlane (`npm start` runs this, bundled as dist/server/main.js). One thing happens before
 * the server's modules load: a nextTick queue entry is held for the life of the process, which must
 * come before the first full garbage collection (see the module; issue #6). A static import of the
 * server would evaluate all of its modules first, hence the dynamic import.
 */
import './http/next-tick-entry.js';

const { startServer } = await import('./server');
await startServer();
