/**
 * An S3 protocol server on a loopback port for tests: s3rver (npm), which stores objects on disk and answers the
 * AWS SDK v3 — presigned GETs included. Not a mock: the SDK talks HTTP to it as to any S3-compatible server.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import type { S3Settings } from '../../server/store/files/s3-settings.js';

/** s3rver's fixed credentials. */
export const S3_KEY_ID = 'S3RVER';
export const S3_SECRET = 'S3RVER';

export interface S3TestServer {
  endpoint: string;
  /** Settings for a bucket that exists (made at start). */
  settings(bucket?: string): S3Settings;
  /** The `DOCLOOM_S3_*` settings of a `docloom serve` using `bucket` on this server. */
  serveEnv(bucket?: string): Record<string, string>;
  /** Where s3rver keeps the objects (to check none is left). */
  directory: string;
  /** The keys of every object in `bucket` (s3rver keeps each as a file beside its metadata). */
  objects(bucket?: string): string[];
  stop(): Promise<void>;
}

export async function startS3Server(buckets: string[] = ['docloom-test']): Promise<S3TestServer> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'docloom-s3-'));
  const server = new S3rver({ port: 0, address: '127.0.0.1', directory, silent: true, configureBuckets: buckets.map((name) => ({ name })) });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    directory,
    objects(bucket = buckets[0]) {
      const dir = path.join(directory, bucket);
      if (!fs.existsSync(dir)) return [];
      return (fs.readdirSync(dir, { recursive: true }) as string[])
        .filter((f) => fs.statSync(path.join(dir, f)).isFile() && !f.endsWith('._S3rver_metadata.json') && !f.endsWith('._S3rver_object.md5'))
        .map((f) => f.replace(/\._S3rver_object$/, ''));
    },
    settings: (bucket = buckets[0]) => ({
      bucket,
      endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: S3_KEY_ID, secretAccessKey: S3_SECRET },
      publicBaseUrl: null,
    }),
    serveEnv: (bucket = buckets[0]) => ({
      DOCLOOM_S3_BUCKET: bucket,
      DOCLOOM_S3_ENDPOINT: endpoint,
      DOCLOOM_S3_FORCE_PATH_STYLE: 'true',
      DOCLOOM_S3_ACCESS_KEY_ID: S3_KEY_ID,
      DOCLOOM_S3_SECRET_ACCESS_KEY: S3_SECRET,
    }),
    async stop() {
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
