/**
 * Image fetches that the guard lets through (the local network allowed on purpose, against real HTTP servers on
 * 127.0.0.1) and everything that bounds them: type by magic bytes, size by Content-Length and by stream, pixels
 * from the header, total time, redirects (followed, counted, and checked at every hop), per-document dedupe, the
 * shared cache, data: URIs, and the offline message. Nothing here sends traffic anywhere but loopback.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type http from 'node:http';
import { EngineError } from '../../server/engine/errors.js';
import { createImageResolver, ImageCache, type ImageResolverOptions } from '../../server/net/image-resolver.js';
import type { ResolveHost } from '../../server/net/guarded-lookup.js';
import { closedPort, hasIpv6Loopback, settle, startHttp, startTrap, type HttpListener, type Listener } from './listeners.js';
import { dataUri, GIF_1X1, gifBomb, jpegBomb, makeJpeg, makePng, pngBomb, WEBP_1X1 } from './images.js';

const LIMITS = { imageBytes: 64 * 1024, imagePixels: 1_000_000, imageFetchMs: 5000 };
const PNG = makePng(5, 3);
const JPEG = makeJpeg(13, 9);

// A self-signed certificate for localhost/127.0.0.1/::1, valid until 2126: only used to prove that TLS
// certificates are verified (a self-signed one is refused).
const TLS = {
  key: `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgiWfOqD0gy+SA3EMh
y7Mz0G9HluDwCuo4KyrWEh0aJH+hRANCAARkuaDXpZdIeZmg87fWmpf0/AdkpUX7
wMe5fEdRSF7O1ftZFf1zdyPqftxGqO7VNY14HboN8WD5tbrIG6+Qhhgk
-----END PRIVATE KEY-----
`,
  cert: `-----BEGIN CERTIFICATE-----
MIIBrTCCAVSgAwIBAgIUH0qdKJxhOehHvTe0PQs6NjXI/mswCgYIKoZIzj0EAwIw
FDESMBAGA1UEAwwJbG9jYWxob3N0MCAXDTI2MTEyMjE3MTMyOVoYDzIxMjYxMDI5
MTcxMzI5WjAUMRIwEAYDVQQDDAlsb2NhbGhvc3QwWTATBgcqhkjOPQIBBggqhkjO
PQMBBwNCAARkuaDXpZdIeZmg87fWmpf0/AdkpUX7wMe5fEdRSF7O1ftZFf1zdyPq
ftxGqO7VNY14HboN8WD5tbrIG6+Qhhgko4GBMH8wHQYDVR0OBBYEFF3uoi7zr4pd
Mzkmt4qdQYKL4nMrMB8GA1UdIwQYMBaAFF3uoi7zr4pdMzkmt4qdQYKL4nMrMA8G
A1UdEwEB/wQFMAMBAf8wLAYDVR0RBCUwI4IJbG9jYWxob3N0hwR/AAABhxAAAAAA
AAAAAAAAAAAAAAABMAoGCCqGSM49BAMCA0cAMEQCIAPFCnysaW7AwJuBp8nBnRwK
+9uomAPZ0QHiqOUR+alAAiBgFTPMffBqem3GhtcPjfbmVdUU70nr7XG3v20i0dn+
Rg==
-----END CERTIFICATE-----
`,
};

let server: HttpListener;
let other: HttpListener;
let tlsServer: HttpListener;
let trap4: Listener;
let trap6: Listener | null = null;
/** What the streaming routes observed, for assertions about cut-off downloads. */
const observed = { endlessClosed: false, endlessBytes: 0, declaredClosed: false, bombClosed: false };

function send(body: Uint8Array, contentType?: string): (req: http.IncomingMessage, res: http.ServerResponse) => void {
  return (_req, res) => {
    res.writeHead(200, { 'Content-Length': String(body.length), ...(contentType ? { 'Content-Type': contentType } : {}) });
    res.end(body);
  };
}

function redirect(status: number, location: string | (() => string)): (req: http.IncomingMessage, res: http.ServerResponse) => void {
  return (_req, res) => {
    res.writeHead(status, { Location: typeof location === 'string' ? location : location() }).end();
  };
}

before(async () => {
  trap4 = await startTrap('127.0.0.1');
  if (await hasIpv6Loopback()) trap6 = await startTrap('::1');
  // The ::1 halves of some tests below run only where the machine has an IPv6 loopback: say so when they do not.
  if (!trap6) console.log('# note: no IPv6 loopback (::1) here: the ::1 checks inside these tests are not run');
  other = await startHttp('127.0.0.1', { '/png': send(PNG, 'image/png') });
  tlsServer = await startHttp('127.0.0.1', { '/png': send(PNG, 'image/png') }, TLS);
  server = await startHttp('127.0.0.1', {
    // The Content-Type header is wrong or missing on purpose: the bytes decide.
    '/png': send(PNG, 'text/plain'),
    '/jpeg': send(JPEG, 'application/octet-stream'),
    '/gif': send(GIF_1X1),
    '/webp': send(WEBP_1X1, 'image/png'),
    '/html': send(Buffer.from('<!doctype html><html><body>Not an image</body></html>'), 'image/png'),
    '/tiny': send(Buffer.from('GIF8'), 'image/gif'),
    '/gif-bomb': send(gifBomb(), 'image/gif'),
    '/jpeg-bomb': send(jpegBomb(60_000, 60_000), 'image/jpeg'),
    '/png-bomb-open': (_req, res) => {
      // Only the header, then silence: the pixel limit must be enforced from the header, not at the end.
      res.writeHead(200, { 'Content-Type': 'image/png' });
      res.write(pngBomb(100_000, 100_000).subarray(0, 33));
      res.on('close', () => { observed.bombClosed = true; });
    },
    '/declared-too-big': (_req, res) => {
      res.writeHead(200, { 'Content-Length': String(LIMITS.imageBytes + 1), 'Content-Type': 'image/png' });
      res.write(PNG.subarray(0, 16));
      res.on('close', () => { observed.declaredClosed = true; });
    },
    '/endless': (_req, res) => {
      // No Content-Length (chunked): only the stream limit can stop this.
      res.writeHead(200, { 'Content-Type': 'image/png' });
      const chunk = Buffer.alloc(16 * 1024, 0x41);
      chunk.set(PNG.subarray(0, 33));
      res.on('close', () => { observed.endlessClosed = true; });
      const pump = (): void => {
        while (!res.destroyed && !res.writableEnded) {
          observed.endlessBytes += chunk.length;
          if (!res.write(chunk)) { res.once('drain', pump); return; }
          chunk.fill(0x41, 0, 33);
        }
      };
      pump();
    },
    '/never': () => { /* accepts the request and never answers */ },
    '/trickle': (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'image/png' });
      let i = 0;
      const timer = setInterval(() => { if (i < PNG.length) res.write(PNG.subarray(i, ++i)); }, 40);
      res.on('close', () => clearInterval(timer));
    },
    '/truncated': (_req, res) => {
      res.writeHead(200, { 'Content-Length': '1000', 'Content-Type': 'image/png' });
      res.write(PNG.subarray(0, 40), () => res.destroy());
    },
    '/redirect-loop': redirect(302, '/redirect-loop'),
    '/chain': (req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      const n = Number(url.searchParams.get('n'));
      const max = Number(url.searchParams.get('max'));
      if (n < max) res.writeHead(307, { Location: `/chain?n=${n + 1}&max=${max}` }).end();
      else send(PNG)(req, res);
    },
    '/redirect-other': redirect(302, () => `http://127.0.0.1:${other.port}/png`),
    '/redirect-relative': redirect(301, 'png?from=relative'),
    '/redirect-unspecified': redirect(302, () => `http://0.0.0.0:${trap4.port}/x.png`),
    '/redirect-decimal-unspecified': redirect(303, () => `http://0:${trap4.port}/x.png`),
    '/redirect-v6-unspecified': redirect(308, () => `http://[::]:${trap6?.port ?? 1}/x.png`),
    '/redirect-file': redirect(302, 'file:///etc/passwd'),
    '/redirect-ftp': redirect(302, () => `ftp://127.0.0.1:${trap4.port}/x.png`),
    '/redirect-credentials': redirect(302, () => `http://user:pw@127.0.0.1:${trap4.port}/x.png`),
    '/redirect-no-location': (_req, res) => { res.writeHead(302).end(); },
    '/dedupe': send(PNG),
    '/cache': send(PNG),
    '/host': send(PNG),
  });
});

after(async () => {
  await Promise.all([server.close(), other.close(), tlsServer.close(), trap4.close(), trap6?.close()]);
});

function resolver(overrides: Partial<ImageResolverOptions> = {}): ReturnType<typeof createImageResolver> {
  return createImageResolver({ allowPrivateNetwork: true, limits: LIMITS, ...overrides });
}

function url(path: string, listener: HttpListener = server): string {
  return `http://127.0.0.1:${listener.port}${path}`;
}

async function rejectsWith(promise: Promise<unknown>, code: string, message: RegExp, field = 'logo'): Promise<EngineError> {
  let caught: unknown;
  await assert.rejects(promise, (err: unknown) => { caught = err; return true; });
  assert.ok(caught instanceof EngineError, String(caught));
  assert.equal(caught.code, code, caught.message);
  assert.equal(caught.field, field);
  assert.ok(caught.message.startsWith(`Image "${field}": `), caught.message);
  assert.match(caught.message, message);
  return caught;
}

test('PNG, JPEG, GIF and WebP are fetched and typed by their bytes, not by Content-Type', async () => {
  const resolve = resolver();
  const cases: Array<[string, Buffer, string]> = [
    ['/png', PNG, 'image/png'], ['/jpeg', JPEG, 'image/jpeg'], ['/gif', GIF_1X1, 'image/gif'], ['/webp', WEBP_1X1, 'image/webp'],
  ];
  for (const [path, bytes, mime] of cases) {
    const image = await resolve(url(path), 'logo');
    assert.equal(image.mime, mime, path);
    assert.deepEqual(Buffer.from(image.data), bytes, path);
    assert.ok(!Buffer.isBuffer(image.data), 'a fresh Uint8Array, not a view into a pooled Buffer');
    assert.equal(image.data.byteOffset, 0);
    assert.equal(image.data.buffer.byteLength, bytes.length);
  }
});

test('bytes that are not an image are refused, whatever the server calls them', async () => {
  const resolve = resolver();
  await rejectsWith(resolve(url('/html'), 'logo'), 'image_type', /is not a PNG, JPEG, GIF or WebP image \(the server called it image\/png\)/);
  await rejectsWith(resolve(url('/tiny'), 'logo'), 'image_type', /is not a PNG, JPEG, GIF or WebP image/);
});

test('HTTP errors, refused connections and cut-off bodies give clear messages', async () => {
  const resolve = resolver();
  await rejectsWith(resolve(url('/missing.png'), 'logo'), 'image_fetch_failed', /127\.0\.0\.1:\d+ answered 404 Not Found for \/missing\.png/);
  const port = await closedPort();
  await rejectsWith(resolve(`http://127.0.0.1:${port}/x.png`, 'logo'), 'image_fetch_failed', /refused the connection/);
  await rejectsWith(resolve(url('/truncated'), 'logo'), 'image_fetch_failed', /closed before the image (was complete|arrived)/);
});

test('a Content-Length over the limit is refused before the body is read', async () => {
  const started = Date.now();
  await rejectsWith(resolver()(url('/declared-too-big'), 'logo'), 'image_too_large', /announced 64 KB, over the limit of 64 KB/);
  assert.ok(Date.now() - started < 2000, 'refused at the headers, not after a timeout');
  await settle(100);
  assert.equal(observed.declaredClosed, true, 'the connection was closed');
});

test('a body that keeps coming is cut at the byte limit', async () => {
  const started = Date.now();
  await rejectsWith(resolver()(url('/endless'), 'logo'), 'image_too_large', /larger than the limit of 64 KB; the download was stopped/);
  assert.ok(Date.now() - started < 2000, 'cut by size, not by the time limit');
  await settle(100);
  assert.equal(observed.endlessClosed, true, 'the server saw the connection closed');
  const sent = observed.endlessBytes;
  await settle(100);
  assert.equal(observed.endlessBytes, sent, 'nothing more is sent once cut');
});

test('pixel bombs are refused from their header (tiny files declaring huge images)', async () => {
  const resolve = resolver();
  await rejectsWith(resolve(url('/gif-bomb'), 'logo'), 'image_too_large', /65535 × 65535 pixels \(4294\.8 megapixels\), over the limit of 1 megapixels/);
  await rejectsWith(resolve(url('/jpeg-bomb'), 'logo'), 'image_too_large', /60000 × 60000 pixels/);
  const started = Date.now();
  await rejectsWith(resolve(url('/png-bomb-open'), 'logo'), 'image_too_large', /100000 × 100000 pixels/);
  assert.ok(Date.now() - started < 2000, 'refused from the header while the body was still open');
  await settle(100);
  assert.equal(observed.bombClosed, true);
});

test('a server that never answers, or answers too slowly, hits the time limit', async () => {
  const resolve = resolver({ limits: { ...LIMITS, imageFetchMs: 400 } });
  for (const path of ['/never', '/trickle']) {
    const started = Date.now();
    await rejectsWith(resolve(url(path), 'logo'), 'image_timeout', /did not deliver the image within 400 ms \(the image fetch time limit\)/);
    const elapsed = Date.now() - started;
    assert.ok(elapsed >= 380 && elapsed < 2000, `${path}: ${elapsed} ms`);
  }
});

test('redirects are followed (relative and to another server), at most 5 of them', async () => {
  const resolve = resolver();
  const before = other.requests('/png');
  assert.equal((await resolve(url('/redirect-other'), 'logo')).mime, 'image/png');
  assert.equal(other.requests('/png'), before + 1);
  assert.equal((await resolve(url('/redirect-relative'), 'logo')).mime, 'image/png');
  assert.equal((await resolve(url('/chain?n=0&max=5'), 'logo')).mime, 'image/png');
  const chainBefore = server.requests('/chain');
  await rejectsWith(resolve(url('/chain?n=0&max=6'), 'logo'), 'image_fetch_failed', /redirected more than 5 times/);
  assert.equal(server.requests('/chain') - chainBefore, 6, 'the first request and 5 redirects, then it stops');
  const loopBefore = server.requests('/redirect-loop');
  await rejectsWith(resolve(url('/redirect-loop'), 'logo'), 'image_fetch_failed', /redirected more than 5 times/);
  assert.equal(server.requests('/redirect-loop') - loopBefore, 6);
  await rejectsWith(resolve(url('/redirect-no-location'), 'logo'), 'image_fetch_failed', /answered 302 without saying where to/);
});

test('every redirect hop is checked from scratch: a hop to a refused address never connects', async () => {
  const resolve = resolver();
  const before4 = trap4.connections();
  await rejectsWith(resolve(url('/redirect-unspecified'), 'logo'), 'image_blocked', /redirected to 0\.0\.0\.0:\d+: the address 0\.0\.0\.0 is an unspecified/);
  await rejectsWith(resolve(url('/redirect-decimal-unspecified'), 'logo'), 'image_blocked', /the address 0\.0\.0\.0 is an unspecified/);
  await rejectsWith(resolve(url('/redirect-file'), 'logo'), 'image_blocked', /only http and https addresses are fetched, not file: ones/);
  await rejectsWith(resolve(url('/redirect-ftp'), 'logo'), 'image_blocked', /only http and https/);
  await rejectsWith(resolve(url('/redirect-credentials'), 'logo'), 'image_blocked', /user name or password/);
  if (trap6) {
    const before6 = trap6.connections();
    await rejectsWith(resolve(url('/redirect-v6-unspecified'), 'logo'), 'image_blocked', /:: is the unspecified address/);
    await settle();
    assert.equal(trap6.connections(), before6, 'the ::1 listener received nothing');
  }
  await settle();
  assert.equal(trap4.connections(), before4, 'the second listener received nothing');
});

test('the same URL is fetched once per document, even used by several fields at once', async () => {
  const resolve = resolver();
  const before = server.requests('/dedupe');
  const [a, b] = await Promise.all([resolve(url('/dedupe'), 'logo'), resolve(url('/dedupe'), 'stamp')]);
  const c = await resolve(url('/dedupe'), 'footer');
  assert.equal(server.requests('/dedupe') - before, 1);
  assert.deepEqual([a.mime, b.mime, c.mime], ['image/png', 'image/png', 'image/png']);
  // A second document without a shared cache fetches again.
  await resolver()(url('/dedupe'), 'logo');
  assert.equal(server.requests('/dedupe') - before, 2);
});

test('a failure shared by several fields names each field', async () => {
  const resolve = resolver();
  const before = server.requests('/gone.png');
  await rejectsWith(resolve(url('/gone.png'), 'logo'), 'image_fetch_failed', /404/, 'logo');
  await rejectsWith(resolve(url('/gone.png'), 'signature'), 'image_fetch_failed', /404/, 'signature');
  assert.equal(server.requests('/gone.png') - before, 1);
});

test('the shared cache serves other documents, but never across the local-network setting', async () => {
  const cache = new ImageCache({ maxEntries: 10, maxBytes: 1024 * 1024, ttlMs: 60_000 });
  const before = server.requests('/cache');
  await resolver({ cache })(url('/cache'), 'logo');
  const second = await resolver({ cache })(url('/cache'), 'logo');
  assert.equal(second.mime, 'image/png');
  assert.equal(server.requests('/cache') - before, 1);
  assert.equal(cache.size, 1);
  // The same cache, the setting now off: the cached local image must not leak through.
  await rejectsWith(resolver({ cache, allowPrivateNetwork: false })(url('/cache'), 'logo'), 'image_blocked', /loopback/);
  assert.equal(server.requests('/cache') - before, 1);
  // Failures are not cached.
  await rejectsWith(resolver({ cache })(url('/nothing.png'), 'logo'), 'image_fetch_failed', /404/);
  await rejectsWith(resolver({ cache })(url('/nothing.png'), 'logo'), 'image_fetch_failed', /404/);
  assert.equal(server.requests('/nothing.png'), 2);
});

test('host names go through the resolver; the request carries the original Host', async () => {
  const names: ResolveHost = async (hostname) => {
    if (hostname === 'images.test') return [{ address: '127.0.0.1', family: 4 }];
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  };
  const image = await resolver({ resolveHost: names })(`http://images.test:${server.port}/host`, 'logo');
  assert.equal(image.mime, 'image/png');
  assert.equal(server.hostHeaders.at(-1), `images.test:${server.port}`);
});

test('offline: a clear per-field message, and nothing is sent anywhere', async () => {
  const offline: ResolveHost = async (hostname) => {
    throw Object.assign(new Error(`getaddrinfo EAI_AGAIN ${hostname}`), { code: 'EAI_AGAIN' });
  };
  const err = await rejectsWith(resolver({ resolveHost: offline, allowPrivateNetwork: false })('https://images.example.com/logo.png', 'logo'),
    'image_fetch_failed', /could not find the server images\.example\.com \(EAI_AGAIN\): this computer seems to be offline/);
  assert.equal(err.message, 'Image "logo": could not find the server images.example.com (EAI_AGAIN): this computer seems to be offline, or the name does not exist.');
});

test('HTTPS certificates are verified (a self-signed one is refused)', async () => {
  const before = tlsServer.connections();
  await rejectsWith(resolver()(`https://localhost:${tlsServer.port}/png`, 'logo'), 'image_fetch_failed',
    /the HTTPS certificate of localhost:\d+ is not valid \((DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN)\)/);
  assert.equal(tlsServer.connections(), before + 1, 'the TLS connection was made through the guarded lookup');
  assert.equal(tlsServer.requests(), 0, 'no request was sent over the unverified connection');
});

test('data: URIs are decoded with the limits, without any network', async () => {
  const resolve = resolver({ allowPrivateNetwork: false });
  const png = await resolve(dataUri('image/png', PNG), 'logo');
  assert.equal(png.mime, 'image/png');
  assert.deepEqual(Buffer.from(png.data), PNG);
  // The declared type is not trusted either.
  assert.equal((await resolve(dataUri('image/png', JPEG), 'logo')).mime, 'image/jpeg');
  assert.equal((await resolve(`DATA:image/gif;base64,${GIF_1X1.toString('base64')}`, 'logo')).mime, 'image/gif');
  await rejectsWith(resolve(dataUri('image/gif', gifBomb()), 'logo'), 'image_too_large', /the image is 65535 × 65535 pixels/);
  // Decoding errors come from the engine's decodeDataUri, worded by it ("The image for "logo" …").
  await assert.rejects(resolve(dataUri('image/png', Buffer.alloc(100 * 1024)), 'logo'), (err: unknown) =>
    err instanceof EngineError && err.code === 'image_too_large' && err.field === 'logo' && /"logo".*limit of 64 KB/.test(err.message));
  await assert.rejects(resolve('data:text/plain,hello', 'logo'), (err: unknown) =>
    err instanceof EngineError && err.code === 'invalid_image' && err.field === 'logo' && /"logo"/.test(err.message));
});

test('values that are neither data: URIs nor URLs are refused clearly', async () => {
  const resolve = resolver();
  await rejectsWith(resolve('not a url', 'logo'), 'invalid_image', /"not a url" is neither a data: URI nor an http\(s\) URL/);
  await rejectsWith(resolve('/images/logo.png', 'logo'), 'invalid_image', /neither a data: URI nor an http\(s\) URL/);
  await rejectsWith(resolve('   ', 'logo'), 'invalid_image', /must be a data: URI or an http\(s\) URL/);
});
