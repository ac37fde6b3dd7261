/**
 * How big an image is drawn. With a box from the tag (`{{%logo:200x80}}`) the image is scaled to fit inside
 * it, keeping its aspect ratio; without one it keeps its natural size (pixels at 96 dpi) but no more than the
 * default box. Never wider than the column it sits in.
 */
import type { SniffedImage } from './sniff.js';

export const DEFAULT_IMAGE_BOX = { width: 150, height: 150 } as const;
const POINTS_PER_PIXEL = 72 / 96;

export function fitImage(
  image: Pick<SniffedImage, 'width' | 'height' | 'orientation'>,
  box: { width: number; height: number } | null,
  maxWidth: number,
): { width: number; height: number } {
  // EXIF orientations 5–8 turn the picture a quarter: its drawn width is the stored height.
  const turned = image.orientation !== undefined && image.orientation >= 5;
  const w = (turned ? image.height : image.width) * POINTS_PER_PIXEL;
  const h = (turned ? image.width : image.height) * POINTS_PER_PIXEL;
  let scale = box
    ? Math.min(box.width / w, box.height / h)
    : Math.min(1, DEFAULT_IMAGE_BOX.width / w, DEFAULT_IMAGE_BOX.height / h);
  if (w * scale > maxWidth) scale = maxWidth / w;
  return { width: round(w * scale), height: round(h * scale) };
}

function round(n: number): number {
  return Math.max(0.01, Math.round(n * 100) / 100);
}
