/**
 * A small tmpfs for the disk-full tests: mounted where root may mount (CI, containers run as root), and filled to
 * the last byte so the next write fails with ENOSPC.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

/** Mounts a tmpfs of `size` (e.g. '48m') on `dir`; false when this process may not mount. */
export function tryMount(dir: string, size: string): boolean {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Appends to `file` until the file system is full (page by page, then byte by byte). */
export function fill(file: string): void {
  const fd = fs.openSync(file, 'a');
  try {
    for (const size of [65536, 4096, 512, 1]) {
      const chunk = Buffer.alloc(size, 0x61);
      for (;;) {
        try {
          fs.writeSync(fd, chunk);
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code === 'ENOSPC') break;
          throw err;
        }
      }
    }
  } finally {
    fs.closeSync(fd);
  }
}
