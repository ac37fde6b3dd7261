#!/usr/bin/env node
// The `docloom` command: runs the compiled CLI (npm run build:server makes dist/).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const cli = new URL('../dist/server/cli.js', import.meta.url);
if (!existsSync(fileURLToPath(cli))) {
  console.error('docloom: dist/ is missing; run `npm run build` first (scripts/setup.sh does it).');
  process.exit(1);
}
await import(cli.href);
