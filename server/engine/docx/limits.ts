/**
 * Limits applied to an uploaded .docx before anything is inflated (CONTRACT.md §8). The service passes the values
 * from its configuration (`limits.docxUncompressedBytes`, `limits.docxEntryRatio`); these are the defaults.
 */
export interface DocxLimits {
  /** Sum of the uncompressed sizes of all entries, as the central directory declares them. */
  maxUncompressedBytes: number;
  /** Largest uncompressed/compressed ratio of one entry (entries of 4 KiB or less are exempt). */
  maxEntryRatio: number;
  /** Number of entries in the archive (a directory of millions of empty entries is a bomb too). */
  maxEntries: number;
}

export const DEFAULT_DOCX_LIMITS: Readonly<DocxLimits> = Object.freeze({
  maxUncompressedBytes: 100 * 1024 * 1024,
  maxEntryRatio: 100,
  maxEntries: 10_000,
});
