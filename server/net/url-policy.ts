/**
 * Which URLs an image fetch may request, decided before any connection. Pure functions.
 *
 * The URL is parsed once, by the WHATWG URL parser (the same one browsers use), and the request is then built
 * from the parsed parts, never from the original string: so there is exactly one opinion about which host a URL
 * names. The parser normalises every IPv4 spelling (2130706433, 0177.0.0.1, 0x7f.1, 127.1, 127.0.0.1., percent-
 * and full-width-encoded digits) to a dotted quad and IPv6 to its compressed form, which the address policy then
 * classifies. Host names are checked later, on every address DNS returns (guarded-lookup.ts).
 */
import net from 'node:net';
import { classifyAddress, isAllowed, refusalReason, type AddressClass } from './address-policy.js';
import { ImageFailure } from './failure.js';

export interface ImageTarget {
  url: URL;
  /** Host for the request: a DNS name, or an IP address without brackets. */
  host: string;
  port: number;
  /** The classified address when the URL names an IP address directly (no DNS involved). */
  literal: AddressClass | null;
}

/** Parses an image URL; null when it is not a URL at all. */
export function parseUrl(value: string, base?: URL): URL | null {
  try {
    return new URL(value, base);
  } catch {
    return null;
  }
}

/** Checks a parsed URL against the guard. Throws ImageFailure('image_blocked') when it may not be fetched. */
export function checkImageUrl(url: URL, allowPrivateNetwork: boolean): ImageTarget {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ImageFailure('image_blocked', `only http and https addresses are fetched, not ${url.protocol} ones.`);
  }
  const bare = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  if (bare === '') throw new ImageFailure('image_blocked', `the address ${url.href} has no host.`);
  let literal: AddressClass | null = null;
  if (net.isIP(bare) !== 0) {
    literal = classifyAddress(bare);
    if (literal === null) {
      // net.isIP and ipaddr.js disagree about an odd form: refuse rather than guess.
      throw new ImageFailure('image_blocked', `the address ${bare} is not an IP address the guard can classify.`);
    }
    if (!isAllowed(literal, allowPrivateNetwork)) {
      throw new ImageFailure('image_blocked', `the address ${literal.address} ${refusalReason(literal)}.`);
    }
  }
  // Checked after the host, so a URL like http://good.example@10.0.0.5/ is reported for what it really names.
  if (url.username !== '' || url.password !== '') {
    throw new ImageFailure('image_blocked',
      `the URL carries a user name or password (before "@"); image URLs with credentials are not fetched.`);
  }
  const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
  return { url, host: bare, port, literal };
}

/**
 * The next hop of a redirect, checked from scratch like a first request. A redirect from https to http is
 * refused: the document's author asked for an authenticated origin, and a downgrade would let anyone on the
 * path substitute the image.
 */
export function checkRedirect(from: URL, location: string, allowPrivateNetwork: boolean): ImageTarget {
  const next = parseUrl(location, from);
  if (next === null) {
    throw new ImageFailure('image_fetch_failed', `the server redirected to an invalid address ("${location}").`);
  }
  if (from.protocol === 'https:' && next.protocol === 'http:') {
    throw new ImageFailure('image_blocked', `the server redirected from https to plain http (${next.origin}); ` +
      'downgrading redirects are refused.');
  }
  try {
    return checkImageUrl(next, allowPrivateNetwork);
  } catch (err) {
    if (err instanceof ImageFailure) throw new ImageFailure(err.code, `redirected to ${next.host}: ${err.message}`);
    throw err;
  }
}
