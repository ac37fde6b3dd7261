/**
 * Fetches one image over http(s) through the outbound guard. Every connection is made by Node's http/https with
 * the guarded lookup (so only checked addresses are ever connected to), the peer address is checked again once
 * connected, redirects are followed by hand (each hop checked from scratch), and everything is bounded: connect
 * time, total time, bytes (Content-Length up front, then the stream is cut), type and pixels (from magic bytes).
 *
 * No proxy is used, whatever HTTP_PROXY/HTTPS_PROXY/NO_PROXY say: through a proxy the guard would only ever see
 * the proxy's address, never the image host's, and could not check anything.
 */
import http from 'node:http';
import https from 'node:https';
import type net from 'node:net';
import type { ImageMime } from '../engine/images/sniff.js';
import { classifyAddress, isAllowed, refusalReason } from './address-policy.js';
import { ImageFailure } from './failure.js';
import { formatBytes, formatSeconds } from './format.js';
import { guardedLookup, systemResolveHost, type ResolveHost } from './guarded-lookup.js';
import { checkImageBytes, checkPixels, hasImageSignature, SIGNATURE_BYTES } from './image-check.js';
import { sniffImage } from '../engine/images/sniff.js';
import { checkImageUrl, checkRedirect, type ImageTarget } from './url-policy.js';

export const MAX_REDIRECTS = 5;
/** Longest wait for DNS + TCP (+ nothing else) of one hop; the total limit still applies on top. */
export const CONNECT_TIMEOUT_MS = 5_000;
/** While this many bytes or fewer have arrived, the header is sniffed early to refuse a pixel bomb at once. */
const EARLY_SNIFF_BYTES = 64 * 1024;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const REQUEST_HEADERS = {
  'User-Agent': 'docloom (image fetch)',
  Accept: 'image/png, image/jpeg, image/gif, image/webp',
  // Compressed bodies would need their own bomb guard; images are compressed already.
  'Accept-Encoding': 'identity',
};
// Dedicated agents: no keep-alive (a pooled socket must never serve a request it was not checked for) and no
// proxy from the environment.
const HTTP_AGENT = new http.Agent({ keepAlive: false });
const HTTPS_AGENT = new https.Agent({ keepAlive: false });

export interface FetchLimits {
  maxBytes: number;
  maxPixels: number;
  /** Total time for the whole fetch, redirects included. */
  timeoutMs: number;
}

export interface GuardedFetchOptions {
  allowPrivateNetwork: boolean;
  limits: FetchLimits;
  /** How host names become addresses (default: the system resolver). Every result is checked all the same. */
  resolveHost?: ResolveHost;
}

export interface FetchedImage {
  data: Uint8Array;
  mime: ImageMime;
  width: number;
  height: number;
}

type HopOutcome = { kind: 'redirect'; location: string } | { kind: 'image'; image: FetchedImage };

/** Fetches `url` (not yet checked) as an image. Rejects with ImageFailure only. */
export async function fetchImage(url: URL, options: GuardedFetchOptions): Promise<FetchedImage> {
  const { allowPrivateNetwork, limits } = options;
  let target = checkImageUrl(url, allowPrivateNetwork);
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), limits.timeoutMs);
  try {
    for (let redirects = 0; ; redirects++) {
      const outcome = await fetchHop(target, options, deadline.signal);
      if (outcome.kind === 'image') return outcome.image;
      if (redirects >= MAX_REDIRECTS) {
        throw new ImageFailure('image_fetch_failed', `the server redirected more than ${MAX_REDIRECTS} times.`);
      }
      target = checkRedirect(target.url, outcome.location, allowPrivateNetwork);
    }
  } finally {
    clearTimeout(timer);
  }
}

/** One request/response: a redirect to follow, or the complete, checked image. */
function fetchHop(target: ImageTarget, options: GuardedFetchOptions, deadline: AbortSignal): Promise<HopOutcome> {
  const { allowPrivateNetwork, limits } = options;
  const where = target.url.host;
  return new Promise<HopOutcome>((resolve, reject) => {
    let settled = false;
    const secure = target.url.protocol === 'https:';
    const req = (secure ? https : http).request({
      host: target.host,
      port: target.port,
      path: `${target.url.pathname}${target.url.search}`,
      method: 'GET',
      headers: REQUEST_HEADERS,
      agent: secure ? HTTPS_AGENT : HTTP_AGENT,
      lookup: guardedLookup(allowPrivateNetwork, options.resolveHost ?? systemResolveHost),
      maxHeaderSize: 16 * 1024,
    });

    const connectTimer = setTimeout(() => {
      finish(new ImageFailure('image_timeout',
        `could not connect to ${where} within ${formatSeconds(Math.min(CONNECT_TIMEOUT_MS, limits.timeoutMs))}.`));
    }, Math.min(CONNECT_TIMEOUT_MS, limits.timeoutMs));
    const onDeadline = (): void => finish(new ImageFailure('image_timeout',
      `${where} did not deliver the image within ${formatSeconds(limits.timeoutMs)} (the image fetch time limit).`));

    function finish(outcome: HopOutcome | ImageFailure): void {
      if (settled) return;
      settled = true;
      clearTimeout(connectTimer);
      deadline.removeEventListener('abort', onDeadline);
      // Nothing more is wanted from this connection in any case: no keep-alive, no draining of bodies.
      req.destroy();
      if (outcome instanceof ImageFailure) reject(outcome);
      else resolve(outcome);
    }

    if (deadline.aborted) return onDeadline();
    deadline.addEventListener('abort', onDeadline);

    req.on('socket', (socket: net.Socket) => {
      socket.once('connect', () => {
        clearTimeout(connectTimer);
        // Second line of defence: the peer actually connected to must pass the same policy.
        const peer = classifyAddress(socket.remoteAddress ?? '');
        if (peer === null || !isAllowed(peer, allowPrivateNetwork)) {
          finish(new ImageFailure('image_blocked', peer === null
            ? `the connection to ${where} has no recognisable peer address.`
            : `the address ${peer.address} ${refusalReason(peer)}.`));
        }
      });
    });
    req.on('error', (err) => finish(describeError(err, where)));
    req.on('response', (res) => {
      res.on('error', (err) => finish(describeError(err, where)));
      const status = res.statusCode ?? 0;
      if (REDIRECT_STATUSES.has(status)) {
        const location = res.headers.location;
        return finish(location
          ? { kind: 'redirect', location }
          : new ImageFailure('image_fetch_failed', `${where} answered ${status} without saying where to (no Location).`));
      }
      if (status < 200 || status > 299) {
        return finish(new ImageFailure('image_fetch_failed',
          `${where} answered ${status}${res.statusMessage ? ` ${res.statusMessage}` : ''} for ${target.url.pathname}.`));
      }
      const declared = Number(res.headers['content-length']);
      if (Number.isFinite(declared) && declared > limits.maxBytes) {
        return finish(new ImageFailure('image_too_large',
          `${where} announced ${formatBytes(declared)}, over the limit of ${formatBytes(limits.maxBytes)}.`));
      }
      readBody(res, limits, where, finish);
    });
    req.end();
  });
}

/** Collects the body within the byte limit, refusing non-images and pixel bombs as soon as the bytes show it. */
function readBody(
  res: http.IncomingMessage,
  limits: FetchLimits,
  where: string,
  finish: (outcome: HopOutcome | ImageFailure) => void,
): void {
  const chunks: Buffer[] = [];
  let total = 0;
  let signatureChecked = false;
  let headerSeen = false;
  res.on('data', (chunk: Buffer) => {
    total += chunk.length;
    if (total > limits.maxBytes) {
      return finish(new ImageFailure('image_too_large',
        `the image from ${where} is larger than the limit of ${formatBytes(limits.maxBytes)}; the download was stopped.`));
    }
    chunks.push(chunk);
    try {
      if (!signatureChecked && total >= SIGNATURE_BYTES) {
        signatureChecked = true;
        if (!hasImageSignature(join(chunks, SIGNATURE_BYTES))) {
          throw new ImageFailure('image_type', `what ${where} sent is not a PNG, JPEG, GIF or WebP image ` +
            `(the server called it ${res.headers['content-type'] ?? 'nothing'}).`);
        }
      }
      if (signatureChecked && !headerSeen && total <= EARLY_SNIFF_BYTES) {
        const early = sniffImage(join(chunks, total));
        if (early !== null) {
          headerSeen = true;
          checkPixels(early, limits.maxPixels);
        }
      }
    } catch (err) {
      finish(err as ImageFailure);
    }
  });
  res.on('end', () => {
    try {
      const data = join(chunks, total);
      const image = checkImageBytes(data, limits.maxPixels, `what ${where} sent`);
      finish({ kind: 'image', image: { data, mime: image.mime, width: image.width, height: image.height } });
    } catch (err) {
      finish(err as ImageFailure);
    }
  });
  // 'close' without 'end': the server hung up mid-body (finish ignores it when already settled).
  res.on('close', () => finish(new ImageFailure('image_fetch_failed',
    `the connection to ${where} closed before the image was complete.`)));
}

/**
 * The first `length` bytes of the chunks in one fresh Uint8Array (not a Buffer from Node's shared pool, so the
 * engine may hand `.buffer` to anyone without exposing other memory).
 */
function join(chunks: readonly Buffer[], length: number): Uint8Array {
  const out = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    if (offset >= length) break;
    const part = chunk.length <= length - offset ? chunk : chunk.subarray(0, length - offset);
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

const LOOKUP_FAILURES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME', 'EAI_NODATA', 'EAI_FAIL']);
const NETWORK_DOWN = new Set(['ENETUNREACH', 'EHOSTUNREACH', 'ENETDOWN', 'EHOSTDOWN', 'EADDRNOTAVAIL']);
const CONNECTION_LOST = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED']);

/** Turns a socket/DNS/TLS/HTTP error into a sentence for the user (offline is named as such). */
export function describeError(err: unknown, where: string): ImageFailure {
  if (err instanceof ImageFailure) return err;
  const code = (err as NodeJS.ErrnoException | null)?.code ?? '';
  const message = err instanceof Error ? err.message : String(err);
  if (LOOKUP_FAILURES.has(code)) {
    return new ImageFailure('image_fetch_failed', `could not find the server ${where.replace(/:\d+$/, '')} ` +
      `(${code}): this computer seems to be offline, or the name does not exist.`);
  }
  if (NETWORK_DOWN.has(code)) {
    return new ImageFailure('image_fetch_failed', `cannot reach ${where} (${code}): this computer seems to be offline.`);
  }
  if (code === 'ECONNREFUSED') {
    return new ImageFailure('image_fetch_failed', `${where} refused the connection (nothing is listening there).`);
  }
  if (CONNECTION_LOST.has(code) || message === 'socket hang up') {
    return new ImageFailure('image_fetch_failed', `the connection to ${where} was closed before the image arrived.`);
  }
  if (/CERT|SELF_SIGNED|ERR_TLS|ERR_SSL/.test(code)) {
    return new ImageFailure('image_fetch_failed', `the HTTPS certificate of ${where} is not valid (${code}).`);
  }
  if (code.startsWith('HPE_')) {
    return new ImageFailure('image_fetch_failed', `${where} sent a malformed HTTP response (${code}).`);
  }
  return new ImageFailure('image_fetch_failed', `could not fetch the image from ${where}: ${message}`);
}
