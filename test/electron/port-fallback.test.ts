/**
 * The fixed-port-with-fallback rule (electron/service/port-fallback.ts), with real listeners holding real ports.
 * (service.test.ts checks the same rule end to end with the real server in its own process.)
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { isPortUnavailable, startWithPortFallback } from '../../electron/service/port-fallback.js';
import { freePort, occupyPort } from './helpers/node-fork.js';

/** Starts a real HTTP server on `port` of 127.0.0.1 (rejects with the listen error, as startServer does). */
function listen(port: number): Promise<http.Server> {
  const server = http.createServer((_req, res) => res.end('ok'));
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

const portOf = (server: http.Server): number => (server.address() as AddressInfo).port;
const close = (server: http.Server): Promise<void> => new Promise((resolve) => server.close(() => resolve()));

describe('startWithPortFallback', () => {
  it('uses the preferred port when it is free', async () => {
    const preferred = await freePort();
    const { started, fellBack } = await startWithPortFallback(listen, preferred);
    try {
      assert.equal(portOf(started), preferred);
      assert.equal(fellBack, false);
    } finally {
      await close(started);
    }
  });

  it('takes a free port when another listener holds the preferred one', async () => {
    const holder = await occupyPort();
    const tried: number[] = [];
    try {
      const { started, fellBack } = await startWithPortFallback((port) => {
        tried.push(port);
        return listen(port);
      }, holder.port);
      try {
        assert.equal(fellBack, true);
        assert.deepEqual(tried, [holder.port, 0]);
        assert.notEqual(portOf(started), holder.port);
        const answer = await fetch(`http://127.0.0.1:${portOf(started)}/`);
        assert.equal(await answer.text(), 'ok');
      } finally {
        await close(started);
      }
    } finally {
      await holder.release();
    }
  });

  it('passes on failures that have nothing to do with the port, without a second try', async () => {
    let calls = 0;
    await assert.rejects(
      startWithPortFallback(async () => {
        calls += 1;
        throw Object.assign(new Error('disk full'), { code: 'ENOSPC' });
      }, 7463),
      /disk full/,
    );
    assert.equal(calls, 1);
  });

  it('does not loop when even port 0 fails', async () => {
    let calls = 0;
    await assert.rejects(
      startWithPortFallback(async () => {
        calls += 1;
        throw Object.assign(new Error('listen EADDRINUSE'), { code: 'EADDRINUSE' });
      }, 7463),
      /EADDRINUSE/,
    );
    assert.equal(calls, 2);
  });
});

describe('isPortUnavailable', () => {
  it('recognises the error codes and a wrapped cause, not wording alone', () => {
    assert.equal(isPortUnavailable(Object.assign(new Error('x'), { code: 'EADDRINUSE' })), true);
    assert.equal(isPortUnavailable(Object.assign(new Error('x'), { code: 'EACCES' })), true);
    assert.equal(isPortUnavailable(new Error('x', { cause: Object.assign(new Error('y'), { code: 'EADDRINUSE' }) })), true);
    assert.equal(isPortUnavailable(new Error('docloom: port 7463 on 127.0.0.1 is already in use (set DOCLOOM_PORT…)')), false);
    assert.equal(isPortUnavailable(Object.assign(new Error('x'), { code: 'ENOENT' })), false);
    assert.equal(isPortUnavailable('EADDRINUSE'), false);
    assert.equal(isPortUnavailable(null), false);
  });
});
