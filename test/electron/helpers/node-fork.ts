/**
 * Runs electron/service-entry.ts the way the app does, minus Electron: a separate Node process (with tsx, so the
 * TypeScript source runs as is) whose IPC channel stands in for Electron's utilityProcess parent port.
 * Only the process launcher differs from the app; the entry script, the server and the ports are real.
 */
import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ForkService, ServiceProcess } from '../../../electron/service/supervisor.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const SERVICE_ENTRY = path.join(ROOT, 'electron', 'service-entry.ts');

export interface ForkedChildren {
  fork: ForkService;
  /** Every process started through `fork`, for assertions and for cleanup. */
  children: ChildProcess[];
  /** Output of the children (stdout + stderr), for failure messages. */
  output: () => string;
}

export function nodeFork(): ForkedChildren {
  const children: ChildProcess[] = [];
  let output = '';
  const forkService: ForkService = (entryPath, env) => {
    const child = fork(entryPath, [], {
      env: env as NodeJS.ProcessEnv,
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    children.push(child);
    const adapter: ServiceProcess = {
      get pid() {
        return child.pid;
      },
      postMessage: (message) => void child.send(message as object),
      onMessage: (listener) => void child.on('message', listener),
      onExit: (listener) => void child.on('exit', (code) => listener(code)),
      kill: () => void child.kill('SIGKILL'),
    };
    return adapter;
  };
  return { fork: forkService, children, output: () => output };
}

/** True while a process with this pid exists. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A port that was free a moment ago (listen on 0, read the port, close). */
export async function freePort(): Promise<number> {
  const net = await import('node:net');
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as import('node:net').AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Holds `port` on 127.0.0.1 with a real listener until release() (to test the fallback). */
export async function occupyPort(port = 0): Promise<{ port: number; release: () => Promise<void> }> {
  const net = await import('node:net');
  const server = net.createServer((socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return {
    port: (server.address() as import('node:net').AddressInfo).port,
    release: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** True when something accepts TCP connections on 127.0.0.1:port. */
export async function isListening(port: number): Promise<boolean> {
  const net = await import('node:net');
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
