/**
 * Which IP addresses an image fetch may connect to. Pure functions, no I/O: the outbound guard asks this for
 * every address it is about to connect to (IP literals in URLs, every address DNS returns, the socket's peer).
 *
 * Three verdicts:
 *   public — reachable from anywhere on the internet; always allowed.
 *   local  — this computer or the user's own network (loopback, RFC 1918, link-local, CGNAT, IPv6 unique-local);
 *            allowed only when the user turns on "allow the local network" (DOCLOOM_ALLOW_PRIVATE_NETWORK).
 *   never  — never a sensible image host, whatever the setting: cloud metadata services, unspecified (0.0.0.0
 *            and :: reach this computer on Linux), multicast, broadcast, documentation, benchmarking, reserved,
 *            and tunnel forms (NAT64, 6to4, Teredo) that embed a non-public IPv4 address.
 *
 * The tables below are explicit so they can be audited line by line; ipaddr.js parses the addresses and its own
 * range() is a second opinion: an address our table calls public must also be plain 'unicast' for ipaddr.js.
 */
import ipaddr from 'ipaddr.js';

export type AddressVerdict = 'public' | 'local' | 'never';

export interface AddressClass {
  /** The address in canonical form (dotted quad, or RFC 5952 IPv6). */
  address: string;
  verdict: AddressVerdict;
  /** Finishes the sentence "the address X …", e.g. "is on a private network (RFC 1918)". */
  description: string;
}

type Range = readonly [cidr: string, verdict: Exclude<AddressVerdict, 'public'>, description: string];

/** Cloud metadata endpoints: checked before the wider ranges they sit in, because they are never allowed. */
const V4_METADATA: readonly Range[] = [
  ['169.254.169.0/24', 'never', 'is a cloud metadata service address (AWS, GCP, Azure, Oracle, DigitalOcean…)'],
  ['169.254.170.0/24', 'never', 'is a cloud metadata service address (AWS ECS/EKS task credentials)'],
  ['100.100.100.200/32', 'never', 'is a cloud metadata service address (Alibaba Cloud)'],
  ['168.63.129.16/32', 'never', 'is a cloud platform service address (Azure WireServer)'],
];

const V4_RANGES: readonly Range[] = [
  ['0.0.0.0/8', 'never', 'is an unspecified ("this network") address'],
  ['127.0.0.0/8', 'local', 'is a loopback address (this computer)'],
  ['10.0.0.0/8', 'local', 'is on a private network (RFC 1918)'],
  ['172.16.0.0/12', 'local', 'is on a private network (RFC 1918)'],
  ['192.168.0.0/16', 'local', 'is on a private network (RFC 1918)'],
  ['169.254.0.0/16', 'local', 'is a link-local address'],
  ['100.64.0.0/10', 'local', 'is a carrier-grade NAT (shared, RFC 6598) address'],
  ['192.0.0.0/24', 'never', 'is reserved for IETF protocol assignments'],
  ['192.0.2.0/24', 'never', 'is reserved for documentation'],
  ['198.51.100.0/24', 'never', 'is reserved for documentation'],
  ['203.0.113.0/24', 'never', 'is reserved for documentation'],
  ['198.18.0.0/15', 'never', 'is reserved for benchmarking'],
  ['192.88.99.0/24', 'never', 'is a deprecated 6to4 relay address'],
  ['224.0.0.0/4', 'never', 'is a multicast address'],
  ['255.255.255.255/32', 'never', 'is the broadcast address'],
  ['240.0.0.0/4', 'never', 'is reserved'],
];

const V6_METADATA: readonly Range[] = [
  ['fd00:ec2::/32', 'never', 'is a cloud metadata service address (AWS IPv6 instance metadata)'],
];

const V6_RANGES: readonly Range[] = [
  ['::/128', 'never', 'is the unspecified address'],
  ['::1/128', 'local', 'is a loopback address (this computer)'],
  ['fe80::/10', 'local', 'is a link-local address'],
  ['fc00::/7', 'local', 'is an IPv6 unique-local (private network) address'],
  ['fec0::/10', 'local', 'is an IPv6 site-local (private network) address'],
  ['ff00::/8', 'never', 'is a multicast address'],
  ['100::/64', 'never', 'is a discard-only address'],
  ['64:ff9b:1::/48', 'never', 'is a local-use NAT64 address'],
  ['2001:db8::/32', 'never', 'is reserved for documentation'],
  ['3fff::/20', 'never', 'is reserved for documentation'],
  ['2001:2::/48', 'never', 'is reserved for benchmarking'],
  ['2001::/23', 'never', 'is reserved for IETF protocol assignments'],
  ['5f00::/16', 'never', 'is a segment-routing address'],
];

type Parsed = ipaddr.IPv4 | ipaddr.IPv6;
type CompiledRange = { net: [Parsed, number]; verdict: Range[1]; description: string };

function compile(ranges: readonly Range[]): CompiledRange[] {
  return ranges.map(([cidr, verdict, description]) => ({ net: ipaddr.parseCIDR(cidr), verdict, description }));
}

const V4_TABLE = compile([...V4_METADATA, ...V4_RANGES]);
const V6_TABLE = compile([...V6_METADATA, ...V6_RANGES]);
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');
const NAT64_WELL_KNOWN = ipaddr.parseCIDR('64:ff9b::/96');
const SIX_TO_FOUR = ipaddr.parseCIDR('2002::/16');
const TEREDO = ipaddr.parseCIDR('2001::/32');
const IPV4_MAPPED = ipaddr.parseCIDR('::ffff:0:0/96');
const IPV4_TRANSLATED = ipaddr.parseCIDR('::ffff:0:0:0/96');
const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96');

function lookupTable(addr: Parsed, table: CompiledRange[]): CompiledRange | undefined {
  return table.find((r) => r.net[0].kind() === addr.kind() && addr.match(r.net));
}

function v4FromParts(high: number, low: number): ipaddr.IPv4 {
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
}

function classifyV4(addr: ipaddr.IPv4): AddressClass {
  const address = addr.toString();
  const hit = lookupTable(addr, V4_TABLE);
  if (hit) return { address, verdict: hit.verdict, description: hit.description };
  // Second opinion: anything ipaddr.js knows as special (AS112, AMT, …) is not a public image host either.
  const range = addr.range();
  if (range !== 'unicast') return { address, verdict: 'never', description: `is a special-purpose address (${range})` };
  return { address, verdict: 'public', description: 'is a public address' };
}

/** An IPv6 form that carries an IPv4 address inside: the verdict follows the IPv4 address. */
function embedded(address: string, inner: ipaddr.IPv4[], form: string, sameHost: boolean): AddressClass {
  const classes = inner.map(classifyV4);
  const worst = classes.find((c) => c.verdict === 'never') ?? classes.find((c) => c.verdict === 'local');
  if (!worst) return { address, verdict: 'public', description: `is the ${form} form of a public address` };
  // A mapped address IS the IPv4 host (same verdict); a tunnel/translator would reach the IPv4 address from
  // someone else's network, which is never the user's local network, so it is refused outright.
  const verdict: AddressVerdict = sameHost ? worst.verdict : 'never';
  return { address, verdict, description: `is the ${form} form of ${worst.address}, which ${worst.description}` };
}

function classifyV6(addr: ipaddr.IPv6): AddressClass {
  const address = addr.toRFC5952String();
  const p = addr.parts;
  if (addr.match(IPV4_MAPPED)) return embedded(address, [addr.toIPv4Address()], 'IPv4-mapped IPv6', true);
  if (addr.match(IPV4_TRANSLATED)) return embedded(address, [v4FromParts(p[6], p[7])], 'IPv4-translated IPv6', false);
  if (addr.match(NAT64_WELL_KNOWN)) return embedded(address, [v4FromParts(p[6], p[7])], 'NAT64', false);
  if (addr.match(SIX_TO_FOUR)) return embedded(address, [v4FromParts(p[1], p[2])], '6to4', false);
  if (addr.match(TEREDO)) {
    // Teredo: server address in bits 32–63, client address (bit-inverted) in bits 96–127.
    const server = v4FromParts(p[2], p[3]);
    const client = v4FromParts(~p[6] & 0xffff, ~p[7] & 0xffff);
    return embedded(address, [server, client], 'Teredo', false);
  }
  const hit = lookupTable(addr, V6_TABLE);
  if (hit) return { address, verdict: hit.verdict, description: hit.description };
  if (addr.match(IPV4_COMPATIBLE)) {
    return { address, verdict: 'never', description: 'is a deprecated IPv4-compatible IPv6 address' };
  }
  if (!addr.match(GLOBAL_UNICAST_V6)) {
    return { address, verdict: 'never', description: 'is not a global unicast address' };
  }
  const range = addr.range();
  if (range !== 'unicast') return { address, verdict: 'never', description: `is a special-purpose address (${range})` };
  return { address, verdict: 'public', description: 'is a public address' };
}

/**
 * Classifies an IP address given in canonical notation (as DNS, sockets and the WHATWG URL parser produce it).
 * Returns null when `ip` is not an IP address at all. Non-canonical IPv4 spellings (octal, hex, short forms) are
 * deliberately NOT accepted here: URLs are normalised by the URL parser before they reach this function.
 */
export function classifyAddress(ip: string): AddressClass | null {
  const text = ip.startsWith('[') && ip.endsWith(']') ? ip.slice(1, -1) : ip;
  if (ipaddr.IPv4.isValidFourPartDecimal(text)) return classifyV4(ipaddr.IPv4.parse(text));
  if (!text.includes(':')) return null;
  if (text.includes('%')) {
    // A zone index ("fe80::1%eth0") only ever scopes link-local addresses to an interface.
    return ipaddr.IPv6.isValid(text)
      ? { address: text, verdict: 'never', description: 'carries a zone index (a scoped, link-local address)' }
      : null;
  }
  const canonical = canonicalIpv6(text);
  return canonical === null ? null : classifyV6(ipaddr.IPv6.parse(canonical));
}

/**
 * The all-hex form of an IPv6 address, by the WHATWG URL parser. ipaddr.js alone is not trusted with a dotted
 * tail: it reads "::127.0.0.1" (IPv4-compatible, ::7f00:1) as "::ffff:127.0.0.1" (IPv4-mapped).
 */
function canonicalIpv6(text: string): string | null {
  try {
    const host = new URL(`http://[${text}]/`).hostname;
    return ipaddr.IPv6.isValid(host.slice(1, -1)) ? host.slice(1, -1) : null;
  } catch {
    return null;
  }
}

/** Whether a classified address may be connected to under the given setting. */
export function isAllowed(cls: AddressClass, allowPrivateNetwork: boolean): boolean {
  return cls.verdict === 'public' || (cls.verdict === 'local' && allowPrivateNetwork);
}

/** Why an address is refused, as the end of a sentence: "…is on a private network (RFC 1918); <advice>". */
export function refusalReason(cls: AddressClass): string {
  const advice = cls.verdict === 'local'
    ? 'images are fetched only from public addresses unless the local network is allowed ' +
      '(the "Allow images from the local network" setting, DOCLOOM_ALLOW_PRIVATE_NETWORK=true)'
    : 'images are never fetched from such addresses';
  return `${cls.description}; ${advice}`;
}
