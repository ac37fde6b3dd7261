/**
 * Image values of one render: each distinct value is decoded or fetched once (a logo repeated in every row costs
 * one fetch), checked (a real PNG/JPEG/GIF/WebP, within the byte and pixel limits) and sized for each place.
 */
import type { ImageRun } from '../model/types.js';
import { EngineError } from '../errors.js';
import { decodeDataUriImage, sniffImage, toDataUri, type SniffedImage } from '../images/sniff.js';
import { fitImage } from '../images/fit.js';

export type ImageResolver = (src: string, field: string) => Promise<{ data: Uint8Array; mime: string }>;

export interface ImageLimits {
  imagesPerDocument: number;
  imageBytes: number;
  imagePixels: number;
}

interface Placement {
  run: ImageRun;
  box: { width: number; height: number } | null;
  maxWidth: number;
}

interface Ready {
  src: string;
  image: SniffedImage;
}

const URL_PATTERN = /^https?:\/\//i;
const DATA_PATTERN = /^data:/i;

export class ImageQueue {
  private readonly bySrc = new Map<string, { field: string; placements: Placement[] }>();

  constructor(
    private readonly limits: ImageLimits,
    private readonly resolveImage: ImageResolver | undefined,
  ) {}

  /** Registers one image place; the returned run is filled in by `settle`. */
  add(value: string, field: string, box: Placement['box'], maxWidth: number): ImageRun {
    const src = value.trim();
    if (!DATA_PATTERN.test(src) && !URL_PATTERN.test(src)) {
      throw new EngineError('invalid_image', `The image for "${field}" must be a data: URI or an http(s) URL.`, field);
    }
    let entry = this.bySrc.get(src);
    if (!entry) {
      if (this.bySrc.size >= this.limits.imagesPerDocument) {
        throw new EngineError(
          'limit_exceeded',
          `The document uses more than ${this.limits.imagesPerDocument} different images (the limit of images per document); "${field}" is one too many.`,
          field,
        );
      }
      entry = { field, placements: [] };
      this.bySrc.set(src, entry);
    }
    const run: ImageRun = { type: 'image', src: '', width: 0, height: 0, alt: field };
    entry.placements.push({ run, box, maxWidth });
    return run;
  }

  get size(): number {
    return this.bySrc.size;
  }

  private place(ready: Ready, placements: Placement[]): void {
    for (const { run, box, maxWidth } of placements) {
      const size = fitImage(ready.image, box, maxWidth);
      run.src = ready.src;
      run.width = size.width;
      run.height = size.height;
    }
  }

  private decode(src: string, field: string): Ready {
    const { data, image, canonical } = decodeDataUriImage(src, this.limits.imageBytes, field);
    this.checkPixels(image, field);
    return { src: canonical ? src : toDataUri(data, image.mime), image };
  }

  /** Decodes or fetches every image (in parallel) and fills in the runs. */
  async settle(): Promise<void> {
    const jobs: Array<Promise<void>> = [];
    for (const [src, entry] of this.bySrc) {
      jobs.push(
        this.load(src, entry.field).then((ready) => this.place(ready, entry.placements)),
      );
    }
    await Promise.all(jobs);
  }

  private async load(src: string, field: string): Promise<Ready> {
    if (DATA_PATTERN.test(src)) return this.decode(src, field);
    if (!this.resolveImage) {
      throw new EngineError(
        'image_url_not_allowed',
        `The image for "${field}" is a URL, and URLs cannot be fetched here; send the image as a data: URI.`,
        field,
      );
    }
    let fetched: { data: Uint8Array; mime: string };
    try {
      fetched = await this.resolveImage(src, field);
    } catch (err) {
      if (err instanceof EngineError) throw err;
      throw new EngineError('image_fetch_failed', `The image for "${field}" could not be fetched: ${(err as Error)?.message ?? String(err)}`, field);
    }
    return this.fromBytes(fetched.data, field);
  }

  private fromBytes(data: Uint8Array, field: string): Ready {
    if (data.byteLength > this.limits.imageBytes) {
      throw new EngineError('image_too_large', `The image for "${field}" is larger than the limit of ${this.limits.imageBytes} bytes.`, field);
    }
    const image = sniffImage(data);
    if (!image) throw new EngineError('invalid_image', `The image for "${field}" is not a PNG, JPEG, GIF or WebP image.`, field);
    this.checkPixels(image, field);
    return { src: toDataUri(data, image.mime), image };
  }

  private checkPixels(image: SniffedImage, field: string): void {
    if (image.width * image.height > this.limits.imagePixels) {
      throw new EngineError(
        'image_too_large',
        `The image for "${field}" has ${image.width}×${image.height} pixels, more than the limit of ${this.limits.imagePixels.toLocaleString('en-US')} pixels.`,
        field,
      );
    }
  }
}
