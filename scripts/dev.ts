/**
 * `npm run dev`: the API server restarting on change, and Vite with hot reload in front of it,
 * proxying /api. Open the URL Vite prints. Mailed links point at Vite's address.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createServer } from 'vite';

const root = fileURLToPath(new URL('../', import.meta.url));
const vitePort = 5173;
const apiPort = 3001;

const api = spawn(process.execPath, ['--import', 'tsx', '--watch', 'src/server/main.ts'], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, PORT: String(apiPort), APP_URL: `http://localhost:${vitePort}` },
});

const vite = await createServer({
  configFile: `${root}vite.config.ts`,
  server: { port: vitePort, proxy: { '/api': { target: `http://127.0.0.1:${apiPort}` } } },
});
await vite.listen();
vite.printUrls();

const stop = async () => {
  api.kill('SIGTERM');
  await vite.close();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
api.on('exit', (code) => {
  if (code !== null && code !== 0) process.stderr.write(`The API server exited with ${code}.\n`);
});
