/**
 * S3-compatible object storage as a FileStore (AWS S3, MinIO, Cloudflare R2, Ceph, Backblaze), through the AWS
 * SDK v3. A document's files are objects `documents/<id>/output.<ext>` and `documents/<id>/editable.docx`; an
 * object is durable once its PUT answered. cloud_id is the key; cloud_url a presigned GET valid until the document
 * expires (at most 7 days, SigV4's limit), or DOCLOOM_S3_PUBLIC_BASE_URL + key for a public bucket. Failures name
 * the bucket, never the credentials.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import type { Readable } from 'node:stream';
import { DeleteObjectCommand, GetObjectCommand, HeadBucketCommand, HeadObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { FileStore, FileVariant } from './file-store.js';
import type { S3Settings } from './s3-settings.js';

/** How long a health check waits for the bucket. */
const PING_MS = 3_000;

/** SigV4 presigned URLs live 7 days at most. */
const MAX_PRESIGN_SECONDS = 7 * 24 * 60 * 60;

const CONTENT_TYPES: Record<string, string> = {
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
};

export function objectKey(id: number, ext: string, variant: FileVariant = 'output'): string {
  return variant === 'editable' ? `documents/${id}/editable.docx` : `documents/${id}/output.${ext}`;
}

/** An S3 failure as one sentence naming the bucket (`code` storage_error), the SDK's error kept as the cause. */
export function storageError(err: unknown, bucket: string, action: string): Error {
  const e = err as Error & { name?: string; $metadata?: { httpStatusCode?: number } };
  const status = e.$metadata?.httpStatusCode ? ` (HTTP ${e.$metadata.httpStatusCode})` : '';
  const reason = e.name && e.name !== 'Error' ? `${e.name}: ${e.message}` : (e.message ?? String(err));
  return Object.assign(new Error(`object storage bucket "${bucket}": ${action} failed${status}: ${reason}`, { cause: err }), { code: 'storage_error' });
}

function isNotFound(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NotFound' || e.name === 'NoSuchKey' || (e.$metadata?.httpStatusCode === 404 && e.name !== 'NoSuchBucket');
}

export function createS3Client(s: S3Settings): S3Client {
  return new S3Client({
    region: s.region,
    ...(s.endpoint ? { endpoint: s.endpoint } : {}),
    forcePathStyle: s.forcePathStyle,
    ...(s.credentials ? { credentials: s.credentials } : {}),
    // Checksums only where S3 requires them: several S3-compatible servers refuse the SDK's newer default headers.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

export function s3FileStore(settings: S3Settings, client: S3Client = createS3Client(settings)): FileStore {
  const Bucket = settings.bucket;
  const fail = (action: string) => (err: unknown) => {
    throw storageError(err, Bucket, action);
  };
  /** HEAD then a streamed GET; undefined when there is no such object (a missing bucket is an error). */
  const openKey = async (Key: string) => {
    let size: number;
    try {
      size = (await client.send(new HeadObjectCommand({ Bucket, Key }))).ContentLength ?? 0;
    } catch (err) {
      if (!isNotFound(err)) throw storageError(err, Bucket, `reading ${Key}`);
      // A HEAD's 404 has no body to tell a missing object from a missing bucket: ask about the bucket.
      await client.send(new HeadBucketCommand({ Bucket })).catch(fail(`reading ${Key}`));
      return undefined;
    }
    return {
      size,
      stream: async () => (await client.send(new GetObjectCommand({ Bucket, Key })).catch(fail(`reading ${Key}`))).Body as Readable,
    };
  };
  const store: FileStore = {
    kind: 's3',
    async place(id, ext, bytes, variant) {
      const Key = objectKey(id, ext, variant);
      const sha256 = crypto.createHash('sha256').update(bytes).digest('hex');
      await client
        .send(new PutObjectCommand({ Bucket, Key, Body: bytes, ContentLength: bytes.byteLength, ContentType: CONTENT_TYPES[ext] ?? 'application/octet-stream' }))
        .catch(fail(`storing ${Key}`));
      return { sha256, durable: Promise.resolve() };
    },
    prepare(id, ext, variant) {
      // Nothing to make ready before the bytes exist: one PUT does it all.
      let taken = false;
      return {
        place: async (bytes) => {
          if (taken) throw new Error(`prepared file ${objectKey(id, ext, variant)} used twice`);
          taken = true;
          return store.place(id, ext, bytes, variant);
        },
        discard: () => Promise.resolve(),
      };
    },
    open: (id, ext, variant) => openKey(objectKey(id, ext, variant)),
    async putKey(Key, sourceFile) {
      // One streamed PUT with its length: a rows file is at most DOCLOOM_LIMIT_BATCH_BYTES (100 MB by default), far
      // under a single PUT's 5 GB, so no multipart upload is needed.
      const { size } = await fs.promises.stat(sourceFile);
      await client
        .send(new PutObjectCommand({ Bucket, Key, Body: fs.createReadStream(sourceFile), ContentLength: size, ContentType: 'application/octet-stream' }))
        .catch(fail(`storing ${Key}`));
    },
    openKey,
    async removeKey(Key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key })).catch(fail(`removing ${Key}`));
    },
    async remove(id, ext) {
      await Promise.all(
        [objectKey(id, ext), objectKey(id, 'docx', 'editable')].map((Key) => client.send(new DeleteObjectCommand({ Bucket, Key })).catch(fail(`removing ${Key}`))),
      );
    },
    async cloud(id, ext, expiresAt) {
      const key = objectKey(id, ext);
      if (settings.publicBaseUrl) return { cloud_id: key, cloud_url: `${settings.publicBaseUrl}/${key}` };
      const seconds = Math.min(MAX_PRESIGN_SECONDS, Math.max(1, Math.ceil((Date.parse(expiresAt) - Date.now()) / 1000)));
      const cloud_url = await getSignedUrl(client, new GetObjectCommand({ Bucket, Key: key }), { expiresIn: seconds });
      return { cloud_id: key, cloud_url };
    },
    async ping() {
      // Bounded: a health check must answer while the SDK would still be retrying an unreachable endpoint.
      await client.send(new HeadBucketCommand({ Bucket }), { abortSignal: AbortSignal.timeout(PING_MS) }).catch(fail('checking the bucket'));
    },
  };
  return store;
}
