/**
 * Starts the service process and keeps hold of it: waits for its {ready} report, stops it on request (politely,
 * then by force), and tells the owner when it ends on its own. The process itself comes from `fork`, so the same
 * code drives Electron's utilityProcess in the app and Node's child_process in the tests.
 */
import { parseServiceMessage } from './messages.js';

/** The part of a forked process the supervisor needs (an adapter over UtilityProcess or ChildProcess). */
export interface ServiceProcess {
  readonly pid: number | undefined;
  postMessage(message: unknown): void;
  onMessage(listener: (message: unknown) => void): void;
  onExit(listener: (code: number | null) => void): void;
  kill(): void;
}

export type ForkService = (entryPath: string, env: NodeJS.ProcessEnv) => ServiceProcess;

export interface StartServiceOptions {
  fork: ForkService;
  entryPath: string;
  env: NodeJS.ProcessEnv;
  /** How long to wait for {ready} before giving up (a first start seeds sample templates). */
  startTimeoutMs?: number;
}

export interface RunningService {
  /** Origin of the API, e.g. http://127.0.0.1:7463 (API paths are relative to it). */
  readonly url: string;
  readonly port: number;
  readonly token: string;
  readonly pid: number | undefined;
  /** True when the preferred port was taken and the service listens on another one. */
  readonly fellBack: boolean;
  /** Asks the service to close, waits for its exit; kills it after `graceMs`. Safe to call more than once. */
  stop(graceMs?: number): Promise<void>;
  /** Called once if the process ends without stop() having been called. */
  onUnexpectedExit(listener: (code: number | null) => void): void;
}

export class ServiceStartError extends Error {
  override readonly name = 'ServiceStartError';
}

export function startService(options: StartServiceOptions): Promise<RunningService> {
  const { fork, entryPath, env, startTimeoutMs = 30_000 } = options;
  const child = fork(entryPath, env);

  let exited = false;
  const exitWaiters: Array<() => void> = [];
  let stopRequested = false;
  const unexpectedExitListeners: Array<(code: number | null) => void> = [];

  return new Promise<RunningService>((resolve, reject) => {
    let settled = false;
    const fail = (message: string): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (!exited) child.kill();
      reject(new ServiceStartError(message));
    };

    const timer = setTimeout(
      () => fail(`the local service did not start within ${Math.round(startTimeoutMs / 1000)} s`),
      startTimeoutMs,
    );

    child.onExit((code) => {
      exited = true;
      for (const wake of exitWaiters.splice(0)) wake();
      if (!settled) fail(`the local service stopped while starting (exit code ${code ?? 'none'})`);
      else if (!stopRequested) for (const listener of unexpectedExitListeners) listener(code);
    });

    child.onMessage((raw) => {
      const message = parseServiceMessage(raw);
      if (!message || settled) return;
      if (message.type === 'error') {
        fail(`the local service could not start: ${message.message}`);
        return;
      }
      settled = true;
      clearTimeout(timer);
      resolve({
        url: message.url,
        port: message.port,
        token: message.token,
        fellBack: message.fellBack,
        pid: child.pid,
        stop: (graceMs = 5_000) => stopChild(graceMs),
        onUnexpectedExit: (listener) => void unexpectedExitListeners.push(listener),
      });
    });
  });

  function waitForExit(ms: number): Promise<boolean> {
    if (exited) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), ms);
      exitWaiters.push(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }

  async function stopChild(graceMs: number): Promise<void> {
    stopRequested = true;
    if (exited) return;
    try {
      child.postMessage({ type: 'stop' });
    } catch {
      // The channel is already closed: the process is on its way out; fall through to waiting/killing.
    }
    if (await waitForExit(graceMs)) return;
    child.kill();
    if (!(await waitForExit(2_000))) {
      throw new ServiceStartError(`the local service (pid ${child.pid ?? '?'}) did not exit when killed`);
    }
  }
}

/** For logs: how the service ended. */
export function describeExit(code: number | null): string {
  return code === null ? 'was killed' : `exited with code ${code}`;
}
