/**
 * Writes the OpenAPI description (server/http/openapi/) to docs/openapi.json: `npm run openapi`.
 * `--check` writes nothing and exits 1 when the committed file differs (test/service/openapi.test.ts checks the same).
 */
import fs from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../server/config.js';
import { buildOpenApi } from '../server/http/openapi/index.js';

const OPENAPI_FILE = path.join(projectRoot(), 'docs', 'openapi.json');

function openApiText(): string {
  return `${JSON.stringify(buildOpenApi(), null, 2)}\n`;
}

const check = process.argv.includes('--check');
const text = openApiText();
if (check) {
  const current = fs.existsSync(OPENAPI_FILE) ? fs.readFileSync(OPENAPI_FILE, 'utf8') : '';
  if (current !== text) {
    console.error('docs/openapi.json is out of date: run `npm run openapi`.');
    process.exit(1);
  }
  console.log('docs/openapi.json is up to date.');
} else {
  fs.writeFileSync(OPENAPI_FILE, text);
  console.log(`wrote ${path.relative(process.cwd(), OPENAPI_FILE)} (${Object.keys(buildOpenApi().paths).length} paths)`);
}
