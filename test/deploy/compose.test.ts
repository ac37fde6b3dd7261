/**
 * compose.yaml and deploy/haproxy.cfg, the documented team setup, without Docker (which cannot run here; the same
 * topology runs on loopback in test/team/). What can go wrong in them without anyone noticing until a deployment:
 * a setting docloom does not know or refuses, the balancer's health check answered 404 or refused by the Host
 * check (taking every instance out), the balancer pointing at a port the image does not listen on.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../../server/config.js';
import { startServer } from '../../server/index.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const COMPOSE = fs.readFileSync(path.join(ROOT, 'compose.yaml'), 'utf8');
const HAPROXY = fs.readFileSync(path.join(ROOT, 'deploy', 'haproxy.cfg'), 'utf8');

/** The docloom instances' environment (the x-docloom block), `${VAR:-default}` → default, `${VAR:?…}` → a sample. */
function instanceEnv(): Record<string, string> {
  const block = /^x-docloom:[\s\S]*?^ {2}environment:\n((?: {4}\S.*\n)+)/m.exec(COMPOSE);
  assert.ok(block, 'compose.yaml has the x-docloom environment block');
  const env: Record<string, string> = {};
  for (const line of block[1].trimEnd().split('\n')) {
    const [, key, raw] = /^ {4}(\w+): (.*)$/.exec(line)!;
    env[key] = raw
      .replace(/^"(.*)"$/, '$1')
      .replace(/\$\{\w+:-([^}]*)\}/g, '$1')
      .replace(/\$\{\w+:\?[^}]*\}/g, 'sample-secret');
  }
  return env;
}

test('every DOCLOOM_ setting compose.yaml passes is documented, and docloom accepts them all', () => {
  const env = instanceEnv();
  const names = Object.keys(env);
  assert.ok(names.includes('DOCLOOM_DATABASE_URL') && names.includes('DOCLOOM_S3_BUCKET') && names.includes('DOCLOOM_PUBLIC_URL'), names.join(', '));
  const documented = fs.readFileSync(path.join(ROOT, 'docs', 'configuration.md'), 'utf8');
  assert.deepEqual(names.filter((n) => !documented.includes(`\`${n}\``)), []);
  const config = loadConfig({ ...env, DOCLOOM_HOST: '0.0.0.0' });
  assert.equal(config.database?.host, 'postgres');
  assert.equal(config.s3?.bucket, 'docloom');
  assert.equal(config.publicUrl, 'http://localhost:8080');
});

test('the balancer checks a route a real service answers 200, with a Host it accepts, on the port the image listens on', async () => {
  const check = /http-check send meth GET uri (\S+) ver HTTP\/1\.1 hdr Host (\S+)/.exec(HAPROXY);
  assert.ok(check, 'deploy/haproxy.cfg sends its health check');
  const [, uri, host] = check;
  assert.equal(`http://${host}`, instanceEnv().DOCLOOM_PUBLIC_URL, 'the check\'s Host is the public URL\'s');
  const imagePort = /DOCLOOM_PORT=(\d+)/.exec(fs.readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8'))?.[1];
  const ports = [...HAPROXY.matchAll(/^\s*server \S+ \S+:(\d+) check/gm)].map((m) => m[1]);
  assert.ok(ports.length === 2 && ports.every((p) => p === imagePort), `balancer ports ${ports.join(', ')}, image ${imagePort}`);

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'docloom-compose-'));
  const s = await startServer({ env: {}, config: { port: 0, dataDir, publicUrl: `http://${host}`, seedSamples: false, renderWorkers: 1, logLevel: 'error' } });
  try {
    const ask = (hostHeader: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = http.request({ host: '127.0.0.1', port: s.port, path: uri, headers: { host: hostHeader } }, (res) => {
          let body = '';
          res.on('data', (c) => (body += c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        });
        req.on('error', reject);
        req.end();
      });
    const answer = await ask(host);
    assert.equal(answer.status, 200, answer.body);
    assert.equal((JSON.parse(answer.body) as { success: boolean }).success, true);
    // And the Host check is really in force: a Host that is not the public URL's is refused.
    assert.notEqual((await ask('evil.example:8080')).status, 200);
  } finally {
    await s.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
