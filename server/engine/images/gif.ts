/**
 * The first frame of a GIF as RGBA pixels, with its transparency: what a browser shows before an animation starts.
 * omggif (the GIF reader jsPDF itself uses) parses the file and decodes the frame; here it is only kept safe and
 * bounded:
 * - the logical screen and the frame are checked against the pixel limit before any pixel buffer is allocated;
 * - the frame's LZW data is checked first (gif-lzw-guard.ts), since omggif loops for ever on some damaged data;
 * - a frame that does not fit inside the screen is decoded on its own and clipped to the screen, as browsers do
 *   (omggif would wrap its rows round the canvas);
 * - an interlaced frame 2–4 rows high, whose rows omggif puts in the wrong places, is decoded as progressive and
 *   its rows put in interlaced order here.
 * A truncated or damaged file is refused (invalid_image) rather than partly shown.
 */
import { GifReader, type Frame } from 'omggif';
import { EngineError } from '../errors.js';
import { assertGifLzwDecodable } from './gif-lzw-guard.js';
import { checkPixelLimit } from './pixel-limit.js';
import type { RgbaImage } from './rgba.js';

function invalid(reason: string): EngineError {
  return new EngineError('invalid_image', `The GIF image is damaged: ${reason}.`);
}

function read(bytes: Uint8Array): GifReader {
  try {
    return new GifReader(bytes);
  } catch (err) {
    throw invalid(`${(err as Error).message.replace(/\.$/, '')} (truncated or not a GIF)`);
  }
}

/** Reads a GIF's first image (frame 0), composed onto a transparent canvas the size of the logical screen. */
export function decodeGifFirstFrame(bytes: Uint8Array, maxPixels: number): RgbaImage {
  const reader = read(bytes);
  const { width, height } = reader;
  if (width === 0 || height === 0) throw invalid('its size is zero');
  checkPixelLimit('GIF', width, height, maxPixels);
  if (reader.numFrames() === 0) throw invalid('it holds no image');
  const frame = reader.frameInfo(0);
  checkPixelLimit('GIF', frame.width, frame.height, maxPixels);
  if (frame.palette_offset === null) throw invalid('it has no colour table');
  assertGifLzwDecodable(bytes, frame.data_offset, frame.width * frame.height);

  const data = new Uint8Array(width * height * 4);
  const fits = frame.x + frame.width <= width && frame.y + frame.height <= height;
  // omggif's interlacing skips rows of frames 2–4 rows high (checked against ImageMagick for heights 1–40).
  const reorderRows = frame.interlaced && frame.height >= 2 && frame.height <= 4;
  if (fits && !reorderRows) {
    reader.decodeAndBlitFrameRGBA(0, data);
    return { width, height, data };
  }
  // The frame alone, at (0, 0) of a screen its own size, then placed and clipped onto the real screen.
  const alone = read(frameAlone(bytes, frame, reorderRows));
  const pixels = new Uint8Array(frame.width * frame.height * 4);
  alone.decodeAndBlitFrameRGBA(0, pixels);
  const stride = frame.width * 4;
  const rows = reorderRows ? interlacedRowOrder(frame.height) : null;
  const visibleWidth = Math.max(0, Math.min(frame.width, width - frame.x));
  for (let i = 0; i < frame.height; i++) {
    const y = frame.y + (rows ? rows[i] : i);
    if (y >= height || visibleWidth === 0) continue;
    data.set(pixels.subarray(i * stride, i * stride + visibleWidth * 4), (y * width + frame.x) * 4);
  }
  return { width, height, data };
}

/** A copy of the file whose screen is exactly frame 0, placed at (0, 0), and (when asked) not interlaced. */
function frameAlone(bytes: Uint8Array, frame: Frame, progressive: boolean): Uint8Array {
  const copy = bytes.slice();
  const localPalette = frame.has_local_palette ? (frame.palette_size ?? 0) * 3 : 0;
  const flags = frame.data_offset - localPalette - 1; // the image descriptor's packed byte
  const descriptor = flags - 8; // x, y, width, height (16-bit little-endian) before it
  const u16 = (at: number, value: number): void => {
    copy[at] = value & 0xff;
    copy[at + 1] = value >> 8;
  };
  u16(6, frame.width);
  u16(8, frame.height);
  u16(descriptor, 0);
  u16(descriptor + 2, 0);
  if (progressive) copy[flags] &= ~0x40;
  return copy;
}

/** Row i of an interlaced stream is frame row result[i]: every 8th row from 0, from 4, every 4th from 2, every 2nd from 1. */
function interlacedRowOrder(height: number): number[] {
  const order: number[] = [];
  for (const [start, step] of [[0, 8], [4, 8], [2, 4], [1, 2]]) {
    for (let y = start; y < height; y += step) order.push(y);
  }
  return order;
}
