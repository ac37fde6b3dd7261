/**
 * The outbound guard's decisions as pure functions: address classification, URL checks (every spelling of an
 * address), redirect hops, and the DNS step with a given resolver. Nothing here opens a socket, so public
 * addresses can be classified without any traffic.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type dns from 'node:dns';
import { classifyAddress, isAllowed, type AddressVerdict } from '../../server/net/address-policy.js';
import { checkImageUrl, checkRedirect, parseUrl } from '../../server/net/url-policy.js';
import { guardedLookup, resolveChecked, type ResolveHost } from '../../server/net/guarded-lookup.js';
import { ImageFailure } from '../../server/net/failure.js';

function verdictOf(ip: string): AddressVerdict | null {
  return classifyAddress(ip)?.verdict ?? null;
}

function expectVerdicts(verdict: AddressVerdict, addresses: string[]): void {
  for (const ip of addresses) assert.equal(verdictOf(ip), verdict, `${ip} should be ${verdict}`);
}

test('public addresses are public, including the edges of the private ranges', () => {
  expectVerdicts('public', [
    '8.8.8.8', '1.1.1.1', '93.184.216.34', '11.0.0.0', '9.255.255.255', '172.15.255.255', '172.32.0.0',
    '100.63.255.255', '100.128.0.0', '169.253.255.255', '169.255.0.0', '192.167.255.255', '192.169.0.0',
    '198.17.255.255', '198.20.0.0', '223.255.255.255', '126.255.255.255', '128.0.0.0',
    '2606:4700:4700::1111', '2001:4860:4860::8888', '2a00:1450:4001:81b::200e',
    '::ffff:8.8.8.8', // IPv4-mapped form of a public address is that public host
    '64:ff9b::808:808', // NAT64 of 8.8.8.8
    '2002:808:808::1', // 6to4 of 8.8.8.8
    '2001:0:808:808::fefe:fefe', // Teredo: server 8.8.8.8, client 1.1.1.1 (stored inverted)
  ]);
});

test('loopback and the local network are "local" (allowed only with the setting)', () => {
  expectVerdicts('local', [
    '127.0.0.1', '127.0.0.2', '127.255.255.254', '10.0.0.5', '10.255.255.255', '172.16.0.1', '172.31.255.255',
    '192.168.0.1', '192.168.255.255', '169.254.1.1', '169.254.168.254', '100.64.0.1', '100.127.255.255',
    '::1', 'fe80::1', 'febf::1', 'fc00::1', 'fd12:3456:789a::1', 'fec0::1',
    '::ffff:127.0.0.1', '::ffff:10.0.0.5', '::ffff:192.168.1.1',
  ]);
});

test('metadata, unspecified, multicast, broadcast, reserved, documentation, benchmarking are never allowed', () => {
  expectVerdicts('never', [
    // metadata services
    '169.254.169.254', '169.254.169.253', '169.254.170.2', '100.100.100.200', '168.63.129.16', 'fd00:ec2::254',
    '::ffff:169.254.169.254',
    // unspecified ("0.0.0.0" and "::" reach this computer on Linux)
    '0.0.0.0', '0.1.2.3', '::', '::ffff:0.0.0.0',
    // multicast, broadcast, reserved
    '224.0.0.1', '239.255.255.250', 'ff02::1', 'ff05::1:3', '255.255.255.255', '240.0.0.1', '250.1.2.3',
    // documentation and benchmarking
    '192.0.2.1', '198.51.100.7', '203.0.113.9', '2001:db8::1', '3fff::1', '198.18.0.1', '198.19.255.255', '2001:2::1',
    // IETF special purpose, deprecated relays, AS112, AMT, discard, ORCHID, segment routing
    '192.0.0.8', '192.0.0.192', '192.88.99.1', '192.175.48.1', '192.52.193.1', '100::1', '2001:10::1', '2001:20::1',
    '2620:4f:8000::1', '5f00::1',
    // outside global unicast
    '4000::1', '::2:3:4', '1::1',
  ]);
});

test('IPv6 forms embedding an IPv4 address follow that address; tunnels to non-public ones are never allowed', () => {
  expectVerdicts('never', [
    '64:ff9b::7f00:1', '64:ff9b::127.0.0.1', '64:ff9b::a00:5', '64:ff9b::a9fe:a9fe', '64:ff9b:1::1', // NAT64
    '2002:7f00:1::1', '2002:a00:5::', '2002:c0a8:101::1', // 6to4 of 127.0.0.1, 10.0.0.5, 192.168.1.1
    '2001:0:808:808::80ff:fffe', // Teredo: client 127.0.0.1 (inverted)
    '2001:0:a00:5::fefe:fefe', // Teredo: server 10.0.0.5
    '::7f00:1', '::127.0.0.1', '::a00:5', '::808:808', // IPv4-compatible (deprecated)
    '::ffff:0:7f00:1', '::ffff:0:a00:5', // IPv4-translated (SIIT)
    '::8.8.8.8', // IPv4-compatible even when the IPv4 address is public (ipaddr.js alone reads it as mapped)
    'fe80::1%eth0', 'fe80::1%1', // zone indexes
  ]);
  expectVerdicts('public', ['::ffff:0:808:808']);
  assert.equal(verdictOf('::ffff:7f00:1'), 'local');
  assert.match(classifyAddress('64:ff9b::a00:5')!.description, /NAT64 form of 10\.0\.0\.5, which is on a private network/);
  assert.match(classifyAddress('2002:7f00:1::1')!.description, /6to4 form of 127\.0\.0\.1, which is a loopback/);
});

test('non-canonical spellings and non-addresses are not classified (the URL parser normalises first)', () => {
  for (const text of ['example.com', '', '127.1', '0177.0.0.1', '0x7f.0.0.1', '2130706433', '127.0.0.1.', '1.2.3.4.5', '[::1']) {
    assert.equal(classifyAddress(text), null, text);
  }
  assert.equal(classifyAddress('[::1]')?.verdict, 'local');
});

test('isAllowed: public always, local only with the setting, never never', () => {
  const [pub, local, never] = ['8.8.8.8', '10.0.0.5', '169.254.169.254'].map((ip) => classifyAddress(ip)!);
  assert.equal(isAllowed(pub, false), true);
  assert.equal(isAllowed(local, false), false);
  assert.equal(isAllowed(local, true), true);
  assert.equal(isAllowed(never, true), false);
});

function blocked(raw: string, allowPrivate = false): ImageFailure {
  const url = parseUrl(raw);
  assert.ok(url, `${raw} should parse`);
  try {
    checkImageUrl(url, allowPrivate);
  } catch (err) {
    assert.ok(err instanceof ImageFailure, `${raw}: ${String(err)}`);
    assert.equal(err.code, 'image_blocked', `${raw}: ${err.message}`);
    return err;
  }
  assert.fail(`${raw} should be refused`);
}

test('every spelling of a loopback address is recognised and refused', () => {
  const loopback = [
    'http://127.0.0.1/', 'http://2130706433/', 'http://0177.0.0.1/', 'http://0x7f.1/', 'http://0x7f.0.0.1/',
    'http://127.1/', 'http://127.0.1/', 'http://127.0.0.1./', 'HTTP://127.0.0.1/', 'hTtPs://127.0.0.1/',
    'http://0x7f000001/', 'http://017700000001/', 'http://127.000.000.001/', 'http://127.0.0.%31/',
    'http://１２７.０.０.１/', 'http://good.example@127.0.0.1/', 'http://good.example:pw@127.0.0.1:8080/',
    'http://127.0.0.1:80/x.png', 'http://127.0.0.1:443/',
  ];
  for (const raw of loopback) assert.match(blocked(raw).message, /the address 127\.0\.0\.1 is a loopback address/, raw);
  for (const raw of ['http://[::1]/', 'http://[0:0:0:0:0:0:0:1]/', 'http://[::0001]/', 'https://[::1]:8443/']) {
    assert.match(blocked(raw).message, /the address ::1 is a loopback address/, raw);
  }
  for (const raw of ['http://[::ffff:127.0.0.1]/', 'http://[::ffff:7f00:1]/', 'http://[0:0:0:0:0:ffff:7f00:1]/']) {
    assert.match(blocked(raw).message, /IPv4-mapped IPv6 form of 127\.0\.0\.1/, raw);
  }
});

test('private, link-local, metadata and special addresses are refused with a clear reason', () => {
  const cases: Array<[string, RegExp]> = [
    ['http://10.0.0.5/logo.png', /^the address 10\.0\.0\.5 is on a private network \(RFC 1918\); images are fetched only from public addresses unless the local network is allowed/],
    ['http://0xa.0.0.5/', /10\.0\.0\.5 is on a private network/],
    ['http://167772165/', /10\.0\.0\.5 is on a private network/],
    ['http://012.0.0.5/', /10\.0\.0\.5 is on a private network/],
    ['https://192.168.0.1/', /192\.168\.0\.1 is on a private network/],
    ['http://172.16.5.4./', /172\.16\.5\.4 is on a private network/],
    ['http://100.64.0.1/', /carrier-grade NAT/],
    ['http://169.254.169.254/latest/meta-data/', /169\.254\.169\.254 is a cloud metadata service address.*never fetched/],
    ['http://2852039166/', /169\.254\.169\.254 is a cloud metadata/],
    ['http://[fd00:ec2::254]/', /fd00:ec2::254 is a cloud metadata/],
    ['http://[fe80::1]/', /fe80::1 is a link-local address/],
    ['http://[fc00::1]/', /unique-local/],
    ['http://0/', /0\.0\.0\.0 is an unspecified/],
    ['http://0.0.0.0/', /0\.0\.0\.0 is an unspecified/],
    ['http://[::]/', /:: is the unspecified address/],
    ['http://224.0.0.1/', /multicast/],
    ['http://255.255.255.255/', /broadcast/],
    ['http://192.0.2.1/', /documentation/],
    ['http://198.18.0.1/', /benchmarking/],
    ['http://[64:ff9b::10.0.0.5]/', /64:ff9b::a00:5 is the NAT64 form of 10\.0\.0\.5/],
    ['http://[2002:a00:5::1]/', /6to4 form of 10\.0\.0\.5/],
    ['http://[::127.0.0.1]/', /IPv4-compatible/],
  ];
  for (const [raw, message] of cases) assert.match(blocked(raw).message, message, raw);
});

test('the local-network setting lets loopback and private addresses through, but never metadata or tunnels', () => {
  for (const raw of ['http://127.0.0.1:9/', 'http://2130706433/', 'http://[::1]/', 'http://[::ffff:127.0.0.1]/', 'http://10.0.0.5/', 'http://[fd12::1]/']) {
    assert.ok(checkImageUrl(parseUrl(raw)!, true).literal, raw);
  }
  for (const raw of ['http://0.0.0.0/', 'http://[::]/', 'http://169.254.169.254/', 'http://[fd00:ec2::254]/', 'http://[64:ff9b::7f00:1]/', 'http://[::ffff:0.0.0.0]/', 'http://224.0.0.1/']) {
    blocked(raw, true);
  }
});

test('only http and https: other schemes are refused', () => {
  for (const raw of ['file:///etc/passwd', 'ftp://example.com/x.png', 'gopher://127.0.0.1:70/_x', 'ws://example.com/',
    'javascript:alert(1)', 'blob:https://example.com/1', 'data:image/png;base64,AAAA', 'jar:http://example.com/!/', 'httpx://example.com/']) {
    assert.match(blocked(raw, true).message, /only http and https addresses are fetched/, raw);
  }
});

test('credentials in the URL are refused, and the host they hide is what gets reported', () => {
  assert.match(blocked('http://user:secret@example.com/x.png').message, /user name or password/);
  assert.match(blocked('http://good.example@10.0.0.5/').message, /10\.0\.0\.5 is on a private network/);
  // A backslash is a path separator for http (as in browsers): the host is good.example, the rest is path.
  const target = checkImageUrl(parseUrl('http://good.example\\@127.0.0.1/')!, false);
  assert.equal(target.host, 'good.example');
  assert.equal(target.literal, null);
});

test('public literals and host names pass the URL check (names are checked at DNS time)', () => {
  const v4 = checkImageUrl(parseUrl('http://8.8.8.8/x.png')!, false);
  assert.deepEqual([v4.host, v4.port, v4.literal?.verdict], ['8.8.8.8', 80, 'public']);
  const v6 = checkImageUrl(parseUrl('https://[2606:4700::1111]/x.png')!, false);
  assert.deepEqual([v6.host, v6.port, v6.literal?.verdict], ['2606:4700::1111', 443, 'public']);
  const name = checkImageUrl(parseUrl('HTTPS://Images.Example.COM:8443/a.png?v=1')!, false);
  assert.deepEqual([name.host, name.port, name.literal, name.url.protocol], ['images.example.com', 8443, null, 'https:']);
});

test('redirect hops are checked from scratch; https → http downgrades are refused', () => {
  const from = parseUrl('https://images.example.com/a/logo.png')!;
  assert.equal(checkRedirect(from, '/b/logo.png', false).url.href, 'https://images.example.com/b/logo.png');
  assert.equal(checkRedirect(from, 'https://cdn.example.net/x', false).host, 'cdn.example.net');
  const downgrade = assert.throws(() => checkRedirect(from, 'http://cdn.example.net/x', false),
    (err: unknown) => err instanceof ImageFailure && err.code === 'image_blocked' && /from https to plain http/.test(err.message));
  void downgrade;
  assert.equal(checkRedirect(parseUrl('http://a.example/')!, 'https://b.example/', false).url.protocol, 'https:');
  assert.throws(() => checkRedirect(from, 'http://127.0.0.1/', true), /from https to plain http/);
  assert.throws(() => checkRedirect(parseUrl('http://a.example/')!, 'http://2130706433/', false),
    (err: unknown) => err instanceof ImageFailure && /redirected to 127\.0\.0\.1: the address 127\.0\.0\.1 is a loopback/.test(err.message));
  assert.throws(() => checkRedirect(parseUrl('http://a.example/')!, 'file:///etc/passwd', true),
    (err: unknown) => err instanceof ImageFailure && err.code === 'image_blocked');
  assert.throws(() => checkRedirect(parseUrl('http://a.example/')!, 'http://[::1', true),
    (err: unknown) => err instanceof ImageFailure && err.code === 'image_fetch_failed');
});

const fixedDns = (table: Record<string, string[]>): ResolveHost => async (hostname) => {
  const list = table[hostname];
  if (!list) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  return list.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
};

test('DNS step: every resolved address is checked; one bad address refuses the name', async () => {
  const dns = fixedDns({
    'public.test': ['8.8.8.8', '2606:4700::1111'],
    'mixed.test': ['8.8.8.8', '127.0.0.1'],
    'rebind.test': ['10.0.0.5'],
    'meta.test': ['169.254.169.254'],
    'mapped.test': ['::ffff:127.0.0.1'],
    'weird.test': ['not-an-address'],
    'empty.test': [],
  });
  assert.equal((await resolveChecked('public.test', false, dns)).length, 2);
  await assert.rejects(resolveChecked('mixed.test', false, dns),
    (err: unknown) => err instanceof ImageFailure && err.code === 'image_blocked' &&
      err.message === 'mixed.test resolves to 127.0.0.1, which is a loopback address (this computer); images are fetched ' +
        'only from public addresses unless the local network is allowed (the "Allow images from the local network" setting, ' +
        'DOCLOOM_ALLOW_PRIVATE_NETWORK=true).');
  await assert.rejects(resolveChecked('rebind.test', false, dns), /10\.0\.0\.5, which is on a private network/);
  assert.equal((await resolveChecked('rebind.test', true, dns)).length, 1);
  await assert.rejects(resolveChecked('meta.test', true, dns), /cloud metadata/);
  await assert.rejects(resolveChecked('mapped.test', false, dns), /IPv4-mapped IPv6 form of 127\.0\.0\.1/);
  await assert.rejects(resolveChecked('weird.test', true, dns), /not an IP address/);
  await assert.rejects(resolveChecked('empty.test', true, dns), { code: 'ENOTFOUND' });
  await assert.rejects(resolveChecked('missing.test', true, dns), { code: 'ENOTFOUND' });
});

function callLookup(lookup: ReturnType<typeof guardedLookup>, host: string, options: dns.LookupOptions):
  Promise<{ err: NodeJS.ErrnoException | null; address: string | dns.LookupAddress[]; family?: number }> {
  return new Promise((resolve) => lookup(host, options, (err, address, family) => resolve({ err, address, family })));
}

test('the lookup handed to http.request answers in both of Node\'s shapes and honours the family', async () => {
  const lookup = guardedLookup(false, fixedDns({ 'public.test': ['2606:4700::1111', '8.8.8.8'], 'mixed.test': ['8.8.8.8', '10.1.1.1'] }));
  const all = await callLookup(lookup, 'public.test', { all: true });
  assert.deepEqual(all.address, [{ address: '2606:4700::1111', family: 6 }, { address: '8.8.8.8', family: 4 }]);
  const one = await callLookup(lookup, 'public.test', { family: 4 });
  assert.deepEqual([one.err, one.address, one.family], [null, '8.8.8.8', 4]);
  const six = await callLookup(lookup, 'public.test', { family: 'IPv6', all: true });
  assert.deepEqual(six.address, [{ address: '2606:4700::1111', family: 6 }]);
  const refused = await callLookup(lookup, 'mixed.test', { all: true });
  assert.ok(refused.err instanceof ImageFailure);
  assert.match(refused.err.message, /10\.1\.1\.1, which is on a private network/);
  const none = await callLookup(guardedLookup(false, fixedDns({ 'v4.test': ['8.8.8.8'] })), 'v4.test', { family: 6 });
  assert.equal(none.err?.code, 'ENOTFOUND');
});
