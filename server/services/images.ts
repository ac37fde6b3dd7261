/**
 * How image values in the data become bytes: data: URIs and http(s) URLs through the outbound guard in server/net
 * (CONTRACT.md §9). A resolver serves one document (it de-duplicates URLs within it); the cache of fetched
 * images is shared by all documents of a render thread. Built from plain settings because a function cannot be
 * sent to a worker.
 */
import type { ImageResolver } from '../engine/index.js';
import type { Limits } from '../config.js';
import { ImageCache, createImageResolver } from '../net/image-resolver.js';

export interface ImageSettings {
  allowPrivateNetwork: boolean;
  limits: Limits;
}

/** Returns a maker of one resolver per document. */
export function imageResolvers(settings: ImageSettings): () => ImageResolver {
  const cache = new ImageCache();
  return () =>
    createImageResolver({
      allowPrivateNetwork: settings.allowPrivateNetwork,
      limits: { imageBytes: settings.limits.imageBytes, imagePixels: settings.limits.imagePixels, imageFetchMs: settings.limits.imageFetchMs },
      cache,
    });
}
