/** Starts Tutorlane (`npm start` runs this, bundled as dist/server/main.js). */
import { enableCompileCache } from 'node:module';

// Node keeps the code it compiled of the server's modules in its compile cache (in the system's
// temporary folder, or NODE_COMPILE_CACHE), so a restart reads it back instead of compiling the
// bundle again. Only modules loaded after this call are cached: the server is imported below.
enableCompileCache();
const { startServer } = await import('./server');
await startServer();
