/**
 * The docloom://app protocol handler (electron/app-protocol.ts) serving a real folder, with the Request and
 * Response classes Electron's protocol.handle() uses (the WHATWG ones Node has too).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createAppProtocolHandler, resolveAppFile } from '../../electron/app-protocol.js';
import { buildContentSecurityPolicy } from '../../electron/security/csp.js';

describe('docloom://app protocol', () => {
  let tmp: string;
  let root: string;
  let handler: (request: Request) => Promise<Response>;
  const csp = buildContentSecurityPolicy('http://127.0.0.1:7463');

  before(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'docloom-electron-protocol-'));
    root = path.join(tmp, 'renderer');
    fs.mkdirSync(path.join(root, 'assets'), { recursive: true });
    fs.writeFileSync(path.join(root, 'index.html'), '<!doctype html><title>docloom</title>');
    fs.writeFileSync(path.join(root, 'assets', 'index-1.js'), 'console.log(1)');
    fs.writeFileSync(path.join(root, 'assets', 'decoder.wasm'), Buffer.from([0, 97, 115, 109]));
    fs.writeFileSync(path.join(root, 'assets', 'a b.css'), 'body{}');
    fs.writeFileSync(path.join(tmp, 'secret.txt'), 'outside the bundle');
    handler = createAppProtocolHandler({ rootDir: root, contentSecurityPolicy: () => csp });
  });
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('serves the GUI\'s files with their types and the CSP', async () => {
    const page = await handler(new Request('docloom://app/index.html'));
    assert.equal(page.status, 200);
    assert.equal(page.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.equal(page.headers.get('content-security-policy'), csp);
    assert.equal(page.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(await page.text(), '<!doctype html><title>docloom</title>');

    const root = await handler(new Request('docloom://app/'));
    assert.equal(await root.text(), '<!doctype html><title>docloom</title>', '/ is index.html');

    const script = await handler(new Request('docloom://app/assets/index-1.js?v=2#x'));
    assert.equal(script.headers.get('content-type'), 'text/javascript; charset=utf-8');
    assert.equal(await script.text(), 'console.log(1)');

    const wasm = await handler(new Request('docloom://app/assets/decoder.wasm'));
    assert.equal(wasm.headers.get('content-type'), 'application/wasm');

    const spaced = await handler(new Request('docloom://app/assets/a%20b.css'));
    assert.equal(spaced.status, 200);
  });

  it('never serves anything outside the bundle', async () => {
    const attempts = [
      'docloom://app/../secret.txt',
      'docloom://app/%2e%2e/secret.txt',
      'docloom://app/assets/%2e%2e%2f%2e%2e%2fsecret.txt',
      'docloom://app/..%5csecret.txt',
      `docloom://app/${encodeURIComponent(path.join(tmp, 'secret.txt'))}`,
      'docloom://app/index.html%00.js',
      'docloom://app/%E0%A4%A',
      'docloom://other/index.html',
    ];
    for (const url of attempts) {
      const response = await handler(new Request(url));
      assert.equal(response.status, 404, url);
      assert.doesNotMatch(await response.text(), /outside the bundle/, url);
    }
  });

  it('answers 404 for missing files and folders, 405 for writes', async () => {
    assert.equal((await handler(new Request('docloom://app/missing.js'))).status, 404);
    assert.equal((await handler(new Request('docloom://app/assets'))).status, 404);
    const post = await handler(new Request('docloom://app/index.html', { method: 'POST', body: 'x' }));
    assert.equal(post.status, 405);
    assert.equal(post.headers.get('content-security-policy'), csp, 'errors carry the CSP too');
  });

  it('HEAD gives the headers without a body', async () => {
    const head = await handler(new Request('docloom://app/index.html', { method: 'HEAD' }));
    assert.equal(head.status, 200);
    assert.equal(head.headers.get('content-length'), String('<!doctype html><title>docloom</title>'.length));
    assert.equal(await head.text(), '');
  });

  it('resolveAppFile maps URLs to files under the root only', () => {
    assert.equal(resolveAppFile(root, 'docloom://app/assets/index-1.js'), path.join(root, 'assets', 'index-1.js'));
    assert.equal(resolveAppFile(root, 'docloom://app'), path.join(root, 'index.html'));
    assert.equal(resolveAppFile(root, 'https://app/index.html'), null);
    assert.equal(resolveAppFile(root, 'not a url'), null);
  });
});
