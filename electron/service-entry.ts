/**
 * Entry of the local service's own process: Electron starts it with utilityProcess.fork (electron/main.ts), so
 * rendering never runs on the main process that keeps the window responsive. It runs the same server/ code as
 * `docloom serve`, configured by the DOCLOOM_* variables the main process sets (see service/environment.ts):
 * 1. start on DOCLOOM_PORT (the fixed default port), or on a free port when that one is taken;
 * 2. make the GUI's token for this run and report {url, port, token} to the parent;
 * 3. on {type:'stop'} (or when the parent goes away) close the server and exit.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../server/config.js';
import { startServer } from '../server/index.js';
import { connectToParent } from './service/parent-channel.js';
import { isStopMessage } from './service/messages.js';
import { startWithPortFallback } from './service/port-fallback.js';

/** Name of the token the desktop window uses; one is made per run and revoked when the service stops. */
export const WINDOW_TOKEN_NAME = 'docloom desktop window';

/**
 * The GUI bundle: dist/renderer beside this file's dist/electron (inside app.asar when packaged); run from
 * source (tsx, the tests) it is the project's dist/renderer. Passed explicitly: the service's default looks
 * for the project folder, which a packaged app does not have.
 */
const HERE = fileURLToPath(import.meta.url);
const GUI_DIR = path.resolve(path.dirname(HERE), '..', HERE.endsWith('.ts') ? 'dist/renderer' : 'renderer');

type Server = Awaited<ReturnType<typeof startServer>>;

async function main(): Promise<void> {
  const parent = connectToParent();
  let server: Server | null = null;
  let stopping: Promise<void> | null = null;
  let tokenId: number | null = null;

  const stop = (exitCode: number): Promise<void> => {
    stopping ??= (async () => {
      try {
        if (server) {
          if (tokenId !== null) await server.revokeToken(tokenId);
          await server.close();
        }
      } catch (error) {
        console.error('docloom service: error while stopping:', error);
        exitCode = exitCode || 1;
      }
      process.exit(exitCode);
    })();
    return stopping;
  };

  // Listen before the (slow) start, so a stop sent at any moment is seen.
  parent.onMessage((message) => {
    if (isStopMessage(message)) void stop(0);
  });
  parent.onDisconnect(() => void stop(0));

  try {
    const base = loadConfig(process.env);
    const { started, fellBack } = await startWithPortFallback(
      (port) => startServer({ config: port === base.port ? base : loadConfig(process.env, { port }), guiDir: GUI_DIR }),
      base.port,
    );
    server = started;
    if (fellBack) console.error(`docloom service: port ${base.port} is in use; listening on ${server.port} instead`);
    // A run that crashed could not revoke its token: clear those first, so one window token is live at a time.
    await server.revokeTokensNamed(WINDOW_TOKEN_NAME);
    const { id, token } = await server.createToken(WINDOW_TOKEN_NAME, { readOnly: false });
    tokenId = id;
    parent.post({ type: 'ready', url: server.url.replace(/\/+$/, ''), port: server.port, token, fellBack });
  } catch (error) {
    parent.post({ type: 'error', message: error instanceof Error ? error.message : String(error) });
    await stop(1);
  }
}

void main();
