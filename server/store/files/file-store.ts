/**
 * Where generated documents' files live, as the services need it (docs/team-server.md): the data folder (default,
 * store/document-files.ts) or S3-compatible object storage (store/files/s3.ts, chosen by DOCLOOM_S3_BUCKET).
 * test/store-contract/file-store.test.ts runs one suite against both.
 */
import type { Readable } from 'node:stream';
import type { FileVariant, PlacedFile, PreparedFile } from '../document-files.js';

export type { FileVariant, PlacedFile, PreparedFile };

export interface StoredFile {
  size: number;
  /** The file's bytes, streamed (never read whole into memory). */
  stream(): Promise<Readable>;
}

/** The interface's cloud fields of a document (CONTRACT.md §cloud): set only when the file is in object storage. */
export interface CloudCopy {
  /** The object's key in the bucket. */
  cloud_id: string;
  /** A presigned GET valid until the document expires, or the public base URL + key. */
  cloud_url: string;
}

export interface FileStore {
  readonly kind: 'local' | 's3';
  /**
   * Puts a document's file in place; `durable` resolves once it would survive a crash. The caller stores the
   * record saying `completed` only after that (DocumentRepo.complete).
   */
  place(id: number, ext: string, bytes: Uint8Array, variant?: FileVariant): Promise<PlacedFile>;
  /**
   * The same, in two steps: whatever can be made ready before the bytes exist (the data folder opens its temp file)
   * starts now, while the document renders; `place(bytes)` then finishes as place() would, or `discard()` drops it.
   */
  prepare(id: number, ext: string, variant?: FileVariant): PreparedFile;
  /** Reads a file; undefined when there is none. */
  open(id: number, ext: string, variant?: FileVariant): Promise<StoredFile | undefined>;
  /** Removes every file of a document (output and editable copy); absent ones are no error. */
  remove(id: number, ext: string): Promise<void>;
  /** The cloud fields for a document expiring at `expiresAt` (ISO); null when files are not in object storage. */
  cloud(id: number, ext: string, expiresAt: string): Promise<CloudCopy | null>;
  /**
   * Keeps a file of the store's own under `key` (a batch's rows file, `batches/<id>/rows.csv`: the object's key in a
   * bucket, the path in the data folder), streamed from a file on this machine; resolves once it is durable.
   */
  putKey(key: string, sourceFile: string): Promise<void>;
  /** Reads the file under `key`; undefined when there is none. */
  openKey(key: string): Promise<StoredFile | undefined>;
  /** Removes the file under `key`; an absent one is no error. */
  removeKey(key: string): Promise<void>;
  /** Resolves when the storage answers (GET /api/health): the data folder is writable, the bucket can be reached. */
  ping(): Promise<void>;
}
