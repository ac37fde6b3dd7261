/**
 * The engine's ImageResolver for one document: turns an image value (a data: URI or an http(s) URL) into bytes.
 *
 *  - data: URIs are decoded with the size limit (decodeDataUri) and checked for pixels; never fetched or cached.
 *  - http(s) URLs go through the outbound guard (guarded-fetch.ts). Within a document the same URL is fetched
 *    once, even when several fields use it at the same time; across documents an optional ImageCache serves it.
 *  - anything else is refused.
 *
 * Failures are EngineErrors naming the field: `Image "logo": the address 10.0.0.5 is on a private network …`.
 */
import type { ImageResolver } from '../engine/index.js';
import { EngineError } from '../engine/errors.js';
import { decodeDataUri } from '../engine/images/sniff.js';
import { ImageFailure, toEngineError } from './failure.js';
import { fetchImage } from './guarded-fetch.js';
import type { ResolveHost } from './guarded-lookup.js';
import { ImageCache, type CachedImage } from './image-cache.js';
import { checkImageBytes } from './image-check.js';
import { parseUrl } from './url-policy.js';

export { ImageCache } from './image-cache.js';
export type { ImageCacheOptions } from './image-cache.js';

export interface ImageResolverOptions {
  /** Let URLs reach loopback and the local network (the GUI switch / DOCLOOM_ALLOW_PRIVATE_NETWORK). */
  allowPrivateNetwork: boolean;
  limits: { imageBytes: number; imagePixels: number; imageFetchMs: number };
  /** Shared by all documents of a service; without it every document fetches its own images. */
  cache?: ImageCache;
  /** How host names become addresses (default: the system resolver); every address is checked regardless. */
  resolveHost?: ResolveHost;
}

export function createImageResolver(options: ImageResolverOptions): ImageResolver {
  const { allowPrivateNetwork, limits, cache } = options;
  const fetchOptions = {
    allowPrivateNetwork,
    limits: { maxBytes: limits.imageBytes, maxPixels: limits.imagePixels, timeoutMs: limits.imageFetchMs },
    resolveHost: options.resolveHost,
  };
  // The cache is shared by documents made under different settings: an image fetched while the local network
  // was allowed must not be served once it no longer is.
  const policy = allowPrivateNetwork ? 'local-allowed' : 'public-only';
  const inDocument = new Map<string, Promise<CachedImage>>();

  async function load(url: URL): Promise<CachedImage> {
    const key = `${policy} ${url.href}`;
    const cached = cache?.get(key);
    if (cached) return cached;
    const fetched = await fetchImage(url, fetchOptions);
    const image: CachedImage = { data: fetched.data, mime: fetched.mime };
    cache?.set(key, image);
    return image;
  }

  return async (src: string, field: string) => {
    if (typeof src !== 'string' || src.trim() === '') {
      throw new EngineError('invalid_image', `Image "${field}": the value must be a data: URI or an http(s) URL.`, field);
    }
    const value = src.trim();
    if (/^data:/i.test(value)) return decodeData(value, field, limits);
    const url = parseUrl(value);
    if (url === null) {
      throw new EngineError('invalid_image',
        `Image "${field}": "${shorten(value)}" is neither a data: URI nor an http(s) URL.`, field);
    }
    let pending = inDocument.get(url.href);
    if (pending === undefined) {
      pending = load(url);
      inDocument.set(url.href, pending);
    }
    try {
      return await pending;
    } catch (err) {
      if (err instanceof ImageFailure) throw toEngineError(err, field);
      throw err;
    }
  };
}

function decodeData(uri: string, field: string, limits: ImageResolverOptions['limits']): { data: Uint8Array; mime: string } {
  const decoded = decodeDataUri(uri, limits.imageBytes, field);
  try {
    checkImageBytes(decoded.data, limits.imagePixels, 'the data: URI');
  } catch (err) {
    if (err instanceof ImageFailure) throw toEngineError(err, field);
    throw err;
  }
  return decoded;
}

function shorten(text: string): string {
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}
