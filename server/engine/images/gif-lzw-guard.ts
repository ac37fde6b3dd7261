/**
 * A guard in front of omggif 1.0.10 (its last release): a frame whose LZW data uses a code before it is defined
 * makes omggif's dictionary point at itself, and its decoder then loops for ever (a 41-byte file is enough; see the
 * test). This walks the codes of the frame — no pixels, no dictionary contents, only each code's string length —
 * and refuses such data. It reads the codes exactly as omggif does and stops where omggif stops (the frame's pixel
 * count, the end code, or the end of the data), so every frame it lets through decodes in bounded time.
 */
import { EngineError } from '../errors.js';

const MAX_CODES = 4096;

function invalid(reason: string): EngineError {
  return new EngineError('invalid_image', `The GIF image is damaged: ${reason}.`);
}

/**
 * Throws EngineError('invalid_image') unless the LZW stream at `dataOffset` (its code size byte, then sub-blocks
 * that omggif has already found well-formed) only uses defined codes before `pixels` pixels are produced.
 */
export function assertGifLzwDecodable(bytes: Uint8Array, dataOffset: number, pixels: number): void {
  let p = dataOffset;
  const minCodeSize = bytes[p++];
  // 2–8 in the GIF spec; up to 11 leaves room for the 12-bit codes; more is not a GIF any viewer shows.
  if (!(minCodeSize <= 11)) throw invalid(`its LZW code size ${minCodeSize} is out of range`);
  const clear = 1 << minCodeSize;
  const end = clear + 1;
  // Length of the string each dictionary code stands for (the single-pixel codes are below `clear`).
  const lengths = new Uint16Array(MAX_CODES);
  const lengthOf = (code: number): number => (code < clear ? 1 : lengths[code]);

  let codeSize = minCodeSize + 1;
  let next = end + 1;
  let prev = -1;
  let produced = 0;
  let bits = 0;
  let bitCount = 0;
  let blockLeft = bytes[p++] ?? 0;

  while (produced < pixels) {
    while (bitCount < codeSize) {
      if (blockLeft === 0) return; // out of data: omggif stops here too
      bits |= bytes[p++] << bitCount;
      bitCount += 8;
      if (--blockLeft === 0) blockLeft = bytes[p++] ?? 0;
    }
    const code = bits & ((1 << codeSize) - 1);
    bits >>>= codeSize;
    bitCount -= codeSize;

    if (code === clear) {
      codeSize = minCodeSize + 1;
      next = end + 1;
      prev = -1;
      continue;
    }
    if (code === end) return;
    let length: number;
    if (code < next) {
      length = lengthOf(code);
    } else if (code === next && prev !== -1) {
      length = lengthOf(prev) + 1; // the code being defined: the previous string plus its own first pixel
    } else {
      throw invalid('its pixel data uses a code before defining it');
    }
    produced += length;
    if (prev !== -1 && next < MAX_CODES) {
      lengths[next] = lengthOf(prev) + 1;
      next++;
      if (next >= 1 << codeSize && codeSize < 12) codeSize++;
    }
    prev = code;
  }
}
