/**
 * How image values in the data become bytes: data: URIs and http(s) URLs through the outbound guard in server/net
 * (CONTRACT.md §9). A resolver serves one document (it de-duplicates URLs within it); the cache of fetched
 * images is shared by all documents of a render thread (its keys carry the network policy). Built from plain
 * settings because a function cannot be sent to a worker.
 */
import type { ImageResolver } from '../engine/index.js';
import type { Limits } from '../config.js';
import { ImageCache, createImageResolver } from '../net/image-resolver.js';

export interface ImageSettings {
  /** The default; a document may say otherwise (the setting can change between documents: services/settings.ts). */
  allowPrivateNetwork: boolean;
  limits: Limits;
}

/** Returns a maker of one resolver per document, under that document's network policy. */
export function imageResolvers(settings: ImageSettings): (allowPrivateNetwork?: boolean) => ImageResolver {
  const cache = new ImageCache();
  return (allowPrivateNetwork = settings.allowPrivateNetwork) =>
    createImageResolver({
      allowPrivateNetwork,
      limits: { imageBytes: settings.limits.imageBytes, imagePixels: settings.limits.imagePixels, imageFetchMs: settings.limits.imageFetchMs },
      cache,
    });
}
