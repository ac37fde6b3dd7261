/**
 * Why an image could not be had, without naming the data field: one fetch may serve several fields of a
 * document (the same URL used twice), so the field is added only when the failure is reported (toEngineError).
 */
import { EngineError } from '../engine/errors.js';

export type ImageFailureCode =
  | 'invalid_image'       // the value is neither a data: URI nor a URL
  | 'image_blocked'       // the outbound guard refused the address, scheme, credentials or a redirect
  | 'image_fetch_failed'  // DNS, connection, TLS, HTTP status, too many redirects, offline
  | 'image_timeout'       // the fetch took longer than limits.imageFetchMs
  | 'image_too_large'     // over limits.imageBytes or limits.imagePixels
  | 'image_type';         // the bytes are not a PNG, JPEG, GIF or WebP image

export class ImageFailure extends Error {
  readonly code: ImageFailureCode;

  /** `detail` finishes the sentence `Image "field": …`. */
  constructor(code: ImageFailureCode, detail: string) {
    super(detail);
    this.name = 'ImageFailure';
    this.code = code;
  }
}

export function toEngineError(failure: ImageFailure, field: string): EngineError {
  return new EngineError(failure.code, `Image "${field}": ${failure.message}`, field);
}
