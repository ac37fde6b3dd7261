/** One service per data dir: service.lock holds the pid; a lock left by a process that died is taken over. */
import fs from 'node:fs';
import type { Layout } from './layout.js';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function acquireLock(layout: Layout): () => void {
  const token = `${process.pid}:${Date.now()}:${Math.random()}`;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(layout.lock, JSON.stringify({ pid: process.pid, token }) + '\n', { flag: 'wx' });
      return () => {
        try {
          const held = JSON.parse(fs.readFileSync(layout.lock, 'utf8')) as { token?: string };
          if (held.token === token) fs.rmSync(layout.lock, { force: true });
        } catch {
          // Already gone.
        }
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      let pid = 0;
      try {
        pid = Number((JSON.parse(fs.readFileSync(layout.lock, 'utf8')) as { pid?: number }).pid) || 0;
      } catch {
        // Unreadable lock: treat as stale.
      }
      if (pid > 0 && alive(pid)) {
        throw new Error(`docloom: another docloom service (pid ${pid}) is using the data dir ${layout.dataDir}`, { cause: err });
      }
      fs.rmSync(layout.lock, { force: true });
    }
  }
  throw new Error(`docloom: cannot lock the data dir ${layout.dataDir}`);
}
