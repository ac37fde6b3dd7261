/**
 * The service process's line to its parent, whichever way it was started:
 * - Electron's utilityProcess.fork gives the child `process.parentPort` (messages arrive as `{ data }`);
 * - Node's child_process.fork (the tests, which cannot run Electron here) gives `process.send` and
 *   `process.on('message')`.
 */
import type { ServiceMessage } from './messages.js';

export interface ParentChannel {
  post(message: ServiceMessage): void;
  onMessage(listener: (message: unknown) => void): void;
  /** Called when the parent goes away (Node IPC closed). Electron ends utility processes with their parent. */
  onDisconnect(listener: () => void): void;
}

/** The part of Electron's ParentPort used here (declared locally: the service process never loads 'electron'). */
interface ParentPortLike {
  postMessage(message: unknown): void;
  on(event: 'message', listener: (event: { data: unknown }) => void): unknown;
}

export function connectToParent(proc: NodeJS.Process = process): ParentChannel {
  const parentPort = (proc as NodeJS.Process & { parentPort?: ParentPortLike }).parentPort;
  if (parentPort) {
    return {
      post: (message) => parentPort.postMessage(message),
      onMessage: (listener) => void parentPort.on('message', (event) => listener(event.data)),
      onDisconnect: () => {},
    };
  }
  const send = proc.send?.bind(proc);
  if (send) {
    return {
      post: (message) => void send(message),
      onMessage: (listener) => void proc.on('message', listener),
      onDisconnect: (listener) => void proc.on('disconnect', listener),
    };
  }
  throw new Error('docloom service: started without a parent to report to (use `docloom serve` to run it alone)');
}
