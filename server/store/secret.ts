/** The HMAC key for signed download links: 32 random bytes, created once per data dir, readable by the owner only. */
import fs from 'node:fs';
import crypto from 'node:crypto';
import type { Layout } from './layout.js';
import { writeFileAtomicSync } from './json-file.js';

export function loadSecret(layout: Layout): Buffer {
  try {
    const hex = fs.readFileSync(layout.secret, 'utf8').trim();
    if (/^[0-9a-f]{64}$/.test(hex)) return Buffer.from(hex, 'hex');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const key = crypto.randomBytes(32);
  writeFileAtomicSync(layout.secret, key.toString('hex') + '\n', { tmpDir: layout.tmp, mode: 0o600 });
  return key;
}
