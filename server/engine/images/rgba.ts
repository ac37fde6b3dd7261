/** Decoded pixels, as the GIF and WebP decoders hand them to the PNG encoder. */
export interface RgbaImage {
  width: number;
  height: number;
  /** width × height × 4 bytes, rows top to bottom, not premultiplied. */
  data: Uint8Array;
}
