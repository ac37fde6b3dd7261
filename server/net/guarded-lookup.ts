/**
 * The DNS step of the outbound guard: a `lookup` function handed to http/https.request, so Node connects only to
 * the addresses this function returns, and this function returns addresses only after every one of them passed
 * the address policy. There is no window between checking and connecting (the socket connects to exactly the
 * checked address) and DNS rebinding gains nothing (each connection resolves and checks afresh).
 *
 * A name with even one refused address is refused as a whole: a public name has no business also resolving to a
 * loopback or private address, and that mix is the signature of a rebinding attack.
 */
import dns from 'node:dns';
import type net from 'node:net';
import { classifyAddress, isAllowed, refusalReason } from './address-policy.js';
import { ImageFailure } from './failure.js';

/** Turns a host name into addresses; dns.lookup (the system resolver, /etc/hosts included) unless replaced. */
export type ResolveHost = (hostname: string) => Promise<dns.LookupAddress[]>;

export const systemResolveHost: ResolveHost = (hostname) =>
  dns.promises.lookup(hostname, { all: true, verbatim: true });

function wantedFamily(family: dns.LookupOptions['family']): 0 | 4 | 6 {
  if (family === 4 || family === 'IPv4') return 4;
  if (family === 6 || family === 'IPv6') return 6;
  return 0;
}

/** Checks every address `hostname` resolves to; resolves to those addresses, or rejects with ImageFailure. */
export async function resolveChecked(
  hostname: string,
  allowPrivateNetwork: boolean,
  resolveHost: ResolveHost = systemResolveHost,
): Promise<dns.LookupAddress[]> {
  const addresses = await resolveHost(hostname);
  if (addresses.length === 0) {
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', hostname });
  }
  for (const entry of addresses) {
    const cls = classifyAddress(entry.address);
    if (cls === null) {
      throw new ImageFailure('image_blocked', `${hostname} resolves to "${entry.address}", which is not an IP address.`);
    }
    if (!isAllowed(cls, allowPrivateNetwork)) {
      throw new ImageFailure('image_blocked', `${hostname} resolves to ${cls.address}, which ${refusalReason(cls)}.`);
    }
  }
  return addresses;
}

/** A `lookup` for net/http/https options that only ever yields addresses the policy allows. */
export function guardedLookup(allowPrivateNetwork: boolean, resolveHost: ResolveHost = systemResolveHost): net.LookupFunction {
  return (hostname, options, callback) => {
    resolveChecked(hostname, allowPrivateNetwork, resolveHost).then(
      (addresses) => {
        const family = wantedFamily(options.family);
        const usable = family === 0 ? addresses : addresses.filter((a) => a.family === family);
        if (usable.length === 0) {
          const err = Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', hostname });
          callback(err, '', 0);
        } else if (options.all) {
          callback(null, usable);
        } else {
          callback(null, usable[0].address, usable[0].family);
        }
      },
      (err: NodeJS.ErrnoException) => callback(err, '', 0),
    );
  };
}
