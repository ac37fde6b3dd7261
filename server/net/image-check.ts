/**
 * What makes bytes acceptable as an image, whatever the server or the data: URI claims: the magic bytes say
 * PNG, JPEG, GIF or WebP (sniffImage), and the pixel count read from the header is within the limit. Nothing is
 * decoded here: a "pixel bomb" (a tiny file declaring 100000 × 100000 pixels) is refused from its header alone.
 */
import { sniffImage, type SniffedImage } from '../engine/images/sniff.js';
import { ImageFailure } from './failure.js';
import { formatPixels } from './format.js';

/** Enough leading bytes to recognise every accepted signature (WebP needs 12: "RIFF" size "WEBP"). */
export const SIGNATURE_BYTES = 12;

/**
 * Whether `head` (at least SIGNATURE_BYTES long) can start an accepted image. Used while a download streams in,
 * to stop a web page or an error document after its first bytes rather than after megabytes. The bytes are
 * judged in full by sniffImage once they are all there; this is only the early exit, so it is kept to the
 * signatures alone.
 */
export function hasImageSignature(head: Uint8Array): boolean {
  const at = (offset: number, text: string): boolean => {
    for (let i = 0; i < text.length; i++) if (head[offset + i] !== text.charCodeAt(i)) return false;
    return true;
  };
  return (head[0] === 0x89 && at(1, 'PNG\r\n\x1a\n'))
    || (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff)
    || at(0, 'GIF87a') || at(0, 'GIF89a')
    || (at(0, 'RIFF') && at(8, 'WEBP'));
}

/** Throws ImageFailure('image_too_large') when the image has more pixels than allowed. */
export function checkPixels(image: SniffedImage, maxPixels: number): void {
  const pixels = image.width * image.height;
  if (pixels > maxPixels) {
    throw new ImageFailure('image_too_large',
      `the image is ${image.width} × ${image.height} pixels (${formatPixels(pixels)}), ` +
      `over the limit of ${formatPixels(maxPixels)}.`);
  }
}

/** Identifies complete image bytes and checks the pixel limit. */
export function checkImageBytes(data: Uint8Array, maxPixels: number, origin: string): SniffedImage {
  const image = sniffImage(data);
  if (image === null) {
    throw new ImageFailure('image_type', `${origin} is not a PNG, JPEG, GIF or WebP image.`);
  }
  checkPixels(image, maxPixels);
  return image;
}
