/** Runs a child process to its end without blocking the event loop (a service under test may live in it). */
import { spawn, type SpawnOptions } from 'node:child_process';

export interface Finished {
  status: number | null;
  stdout: string;
  stderr: string;
}

export function runProcess(command: string, args: readonly string[], options: SpawnOptions): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout!.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr!.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}
