/**
 * `npm run dev`: the API server (restarted on change) behind Vite's dev server, which
 * reloads the page when a source or schema file changes. Open the printed address.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'vite';

const port = Number(process.env.PORT ?? 3000);
const apiPort = Number(process.env.API_PORT ?? port + 1);

const api = spawn('npx', ['tsx', 'watch', '--clear-screen=false', 'src/server/main.ts'], {
  stdio: 'inherit',
  env: { ...process.env, PORT: String(apiPort), PUBLIC_URL: process.env.PUBLIC_URL ?? `http://localhost:${port}`, CLIENT_DIR: 'none' },
});

process.env.API_PORT = String(apiPort);
const vite = await createServer({ server: { port, strictPort: true } });
await vite.listen();
vite.printUrls();

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, async () => {
    api.kill(signal);
    await vite.close();
    process.exit(0);
  });
}
