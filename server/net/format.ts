/** Sizes in error messages, in the words a user reads ("10 MB", "40 megapixels"). */

export function formatBytes(bytes: number): string {
  const mb = 1024 * 1024;
  if (bytes >= mb) return `${Number((bytes / mb).toFixed(1))} MB`;
  if (bytes >= 1024) return `${Number((bytes / 1024).toFixed(1))} KB`;
  return `${bytes} bytes`;
}

export function formatPixels(pixels: number): string {
  return `${Number((pixels / 1_000_000).toFixed(1))} megapixels`;
}

export function formatSeconds(ms: number): string {
  return ms >= 1000 ? `${Number((ms / 1000).toFixed(1))} s` : `${ms} ms`;
}
