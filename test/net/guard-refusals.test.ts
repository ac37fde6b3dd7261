/**
 * Refusals against REAL listeners: for every refused URL a TCP listener on loopback (127.0.0.1, and ::1 where
 * this machine has IPv6 loopback) stands where the URL points, and must receive no connection at all while the
 * resolver rejects with the right code and a per-field message. The positive controls at the top prove that the
 * same URLs DO reach the listeners when the guard lets them, so the "no connection" assertions can fail.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { EngineError } from '../../server/engine/errors.js';
import { createImageResolver } from '../../server/net/image-resolver.js';
import type { ResolveHost } from '../../server/net/guarded-lookup.js';
import { hasIpv6Loopback, settle, startTrap, type Listener } from './listeners.js';

const limits = { imageBytes: 1024 * 1024, imagePixels: 1_000_000, imageFetchMs: 3000 };
// One resolver per document dedupes URLs; every check below gets a fresh one so it really tries again.
type Resolver = ReturnType<typeof createImageResolver>;
const guarded = (): Resolver => createImageResolver({ allowPrivateNetwork: false, limits });
const permissive = (): Resolver => createImageResolver({ allowPrivateNetwork: true, limits });

let trap4: Listener;
let trap6: Listener | null = null;
let ipv6 = false;

before(async () => {
  trap4 = await startTrap('127.0.0.1');
  ipv6 = await hasIpv6Loopback();
  if (ipv6) trap6 = await startTrap('::1');
  // The ::1 halves of some tests below run only where the machine has an IPv6 loopback: say so when they do not.
  if (!trap6) console.log('# note: no IPv6 loopback (::1) here: the ::1 checks inside these tests are not run');
});

after(async () => {
  await trap4.close();
  await trap6?.close();
});

function total(): number {
  return trap4.connections() + (trap6?.connections() ?? 0);
}

async function assertRefused(newResolver: () => Resolver, url: string, code: string, message: RegExp): Promise<void> {
  const before = total();
  await assert.rejects(newResolver()(url, 'logo'), (err: unknown) => {
    assert.ok(err instanceof EngineError, `${url}: ${String(err)}`);
    assert.equal(err.code, code, `${url}: ${err.message}`);
    assert.equal(err.field, 'logo');
    assert.ok(err.message.startsWith('Image "logo": '), err.message);
    assert.match(err.message, message, url);
    return true;
  });
  await settle();
  assert.equal(total(), before, `${url} reached a listener`);
}

function connectRaw(host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host, port }, () => { socket.destroy(); resolve(); });
    socket.on('error', reject);
  });
}

test('controls: the same addresses reach the listeners when allowed, so "no connection" below means something', async () => {
  const p = trap4.port;
  const before = trap4.connections();
  for (const url of [`http://127.0.0.1:${p}/a.png`, `http://localhost:${p}/b.png`, `http://2130706433:${p}/c.png`, `http://[::ffff:127.0.0.1]:${p}/d.png`]) {
    const image = await permissive()(url, 'logo');
    assert.equal(image.mime, 'image/png');
  }
  assert.equal(trap4.connections(), before + 4);
  // 0.0.0.0 reaches this computer on Linux: exactly why it is never allowed.
  await connectRaw('0.0.0.0', p);
  assert.equal(trap4.connections(), before + 5);
  if (trap6) {
    const before6 = trap6.connections();
    assert.equal((await permissive()(`http://[::1]:${trap6.port}/e.png`, 'logo')).mime, 'image/png');
    await connectRaw('::', trap6.port);
    assert.equal(trap6.connections(), before6 + 2);
  }
});

test('every spelling of 127.0.0.1 is refused without a connection', async () => {
  const p = trap4.port;
  const spellings = [
    `http://127.0.0.1:${p}/x.png`, `http://2130706433:${p}/`, `http://0177.0.0.1:${p}/`, `http://0x7f.1:${p}/`,
    `http://0x7f.0.0.1:${p}/`, `http://127.1:${p}/`, `http://127.0.1:${p}/`, `http://127.0.0.1.:${p}/`,
    `HTTP://127.0.0.1:${p}/`, `Https://127.0.0.1:${p}/`, `http://127.0.0.%31:${p}/`, `http://１２７.０.０.１:${p}/`,
    `http://0x7f000001:${p}/`, `http://017700000001:${p}/`, `http://127.000.000.001:${p}/`,
    `http://good.example@127.0.0.1:${p}/`, `http://good.example:pw@127.0.0.1:${p}/`, ` http://127.0.0.1:${p}/ `,
  ];
  for (const url of spellings) await assertRefused(guarded, url, 'image_blocked', /the address 127\.0\.0\.1 is a loopback address/);
  for (const url of [`http://[::ffff:127.0.0.1]:${p}/`, `http://[::ffff:7f00:1]:${p}/`, `http://[0:0:0:0:0:ffff:7f00:1]:${p}/`]) {
    await assertRefused(guarded, url, 'image_blocked', /IPv4-mapped IPv6 form of 127\.0\.0\.1, which is a loopback address/);
  }
});

test('the message says what to do about a local address', async () => {
  await assertRefused(guarded, `http://127.0.0.1:${trap4.port}/x.png`, 'image_blocked',
    /^Image "logo": the address 127\.0\.0\.1 is a loopback address \(this computer\); images are fetched only from public addresses unless the local network is allowed \(the "Allow images from the local network" setting, DOCLOOM_ALLOW_PRIVATE_NETWORK=true\)\.$/);
});

test('::1 in every spelling is refused without a connection', async (t) => {
  if (!trap6) return t.skip('this machine has no IPv6 loopback (::1)');
  const p = trap6.port;
  for (const url of [`http://[::1]:${p}/`, `http://[0:0:0:0:0:0:0:1]:${p}/`, `http://[::0001]:${p}/`, `https://[::1]:${p}/`, `HTTP://[::1]:${p}/`]) {
    await assertRefused(guarded, url, 'image_blocked', /the address ::1 is a loopback address/);
  }
});

test('a host name resolving to loopback is refused at DNS time, before any connection', async () => {
  const p = trap4.port;
  for (const url of [`http://localhost:${p}/x.png`, `https://localhost:${p}/x.png`, `http://LocalHost:${p}/`]) {
    await assertRefused(guarded, url, 'image_blocked', /^Image "logo": localhost resolves to 127\.0\.0\.1, which is a loopback address/);
  }
  // Any name, whatever the resolver says (a rebinding DNS server would answer like this):
  const rebinding: ResolveHost = async (hostname) => hostname === 'images.attacker.test'
    ? [{ address: '127.0.0.1', family: 4 }, ...(trap6 ? [{ address: '::1', family: 6 }] : [])]
    : Promise.reject(Object.assign(new Error('not found'), { code: 'ENOTFOUND' }));
  const viaDns = (): Resolver => createImageResolver({ allowPrivateNetwork: false, limits, resolveHost: rebinding });
  await assertRefused(viaDns, `http://images.attacker.test:${p}/x.png`, 'image_blocked',
    /images\.attacker\.test resolves to 127\.0\.0\.1, which is a loopback address/);
  if (trap6) {
    const v6only: ResolveHost = async () => [{ address: '::1', family: 6 }];
    const viaDns6 = (): Resolver => createImageResolver({ allowPrivateNetwork: false, limits, resolveHost: v6only });
    await assertRefused(viaDns6, `http://images.attacker.test:${trap6.port}/x.png`, 'image_blocked', /resolves to ::1, which is a loopback/);
  }
});

test('unspecified addresses reach this computer, so they are refused even with the local network allowed', async () => {
  const p = trap4.port;
  for (const url of [`http://0.0.0.0:${p}/`, `http://0:${p}/`, `http://0x0:${p}/`]) {
    await assertRefused(permissive, url, 'image_blocked', /0\.0\.0\.0 is an unspecified/);
  }
  await assertRefused(permissive, `http://[::ffff:0.0.0.0]:${p}/`, 'image_blocked', /IPv4-mapped IPv6 form of 0\.0\.0\.0/);
  if (trap6) await assertRefused(permissive, `http://[::]:${trap6.port}/`, 'image_blocked', /:: is the unspecified address/);
});

test('other schemes and credentials are refused, even with the local network allowed', async () => {
  const p = trap4.port;
  for (const url of [`ftp://127.0.0.1:${p}/x.png`, `gopher://127.0.0.1:${p}/_GET%20/`, `ws://127.0.0.1:${p}/`,
    `wss://127.0.0.1:${p}/`, `httpx://127.0.0.1:${p}/`, 'file:///etc/passwd', 'file://localhost/etc/passwd']) {
    await assertRefused(permissive, url, 'image_blocked', /only http and https addresses are fetched/);
  }
  await assertRefused(permissive, `http://user:secret@127.0.0.1:${p}/x.png`, 'image_blocked', /user name or password/);
  await assertRefused(permissive, `http://user@localhost:${p}/x.png`, 'image_blocked', /user name or password/);
});
