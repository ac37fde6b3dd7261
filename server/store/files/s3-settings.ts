/**
 * DOCLOOM_S3_* (docs/configuration.md): object storage for generated files, checked at start so a malformed
 * setting is refused with its name. Credentials are optional: without them the AWS SDK's standard chain applies
 * (AWS_ACCESS_KEY_ID…, ~/.aws, instance roles). They are never logged.
 */

export interface S3Settings {
  bucket: string;
  /** An S3-compatible server's URL (MinIO, R2, Ceph…); null: AWS's own endpoint for the region. */
  endpoint: string | null;
  region: string;
  forcePathStyle: boolean;
  credentials: { accessKeyId: string; secretAccessKey: string } | null;
  /** A public bucket's base URL: cloud_url is this + key instead of a presigned GET. */
  publicBaseUrl: string | null;
}

function httpUrl(env: NodeJS.ProcessEnv, name: string): string | null {
  const raw = env[name];
  if (!raw) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`${name} must be an http:// or https:// URL, got "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`${name} must be an http:// or https:// URL, got "${raw}"`);
  if (url.username || url.password) throw new Error(`${name} must not carry credentials (use DOCLOOM_S3_ACCESS_KEY_ID / DOCLOOM_S3_SECRET_ACCESS_KEY)`);
  return raw.replace(/\/+$/, '');
}

/** Null when DOCLOOM_S3_BUCKET is unset (files stay in the data folder); the other settings need it. */
export function parseS3Settings(env: NodeJS.ProcessEnv): S3Settings | null {
  const bucket = env.DOCLOOM_S3_BUCKET ?? '';
  const others = Object.keys(env).filter((k) => k.startsWith('DOCLOOM_S3_') && k !== 'DOCLOOM_S3_BUCKET' && env[k]);
  if (!bucket) {
    if (others.length > 0) throw new Error(`${others.sort()[0]} is set but DOCLOOM_S3_BUCKET is not: name the bucket, or unset it`);
    return null;
  }
  // S3's bucket naming rules (3–63 lowercase letters, digits, dots and hyphens, starting and ending with one of the first two).
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) throw new Error(`DOCLOOM_S3_BUCKET must be a bucket name (3–63 lowercase letters, digits, dots, hyphens), got "${bucket}"`);
  const region = env.DOCLOOM_S3_REGION || 'us-east-1';
  if (!/^[a-z0-9-]{2,40}$/.test(region)) throw new Error(`DOCLOOM_S3_REGION must be a region name such as eu-west-1, got "${region}"`);
  const rawStyle = env.DOCLOOM_S3_FORCE_PATH_STYLE;
  let forcePathStyle = false;
  if (rawStyle) {
    if (/^(1|true|yes|on)$/i.test(rawStyle)) forcePathStyle = true;
    else if (!/^(0|false|no|off)$/i.test(rawStyle)) throw new Error(`DOCLOOM_S3_FORCE_PATH_STYLE must be true or false, got "${rawStyle}"`);
  }
  const accessKeyId = env.DOCLOOM_S3_ACCESS_KEY_ID ?? '';
  const secretAccessKey = env.DOCLOOM_S3_SECRET_ACCESS_KEY ?? '';
  if (Boolean(accessKeyId) !== Boolean(secretAccessKey)) {
    throw new Error('DOCLOOM_S3_ACCESS_KEY_ID and DOCLOOM_S3_SECRET_ACCESS_KEY go together: set both, or neither (the AWS SDK\'s own chain then applies)');
  }
  return {
    bucket,
    endpoint: httpUrl(env, 'DOCLOOM_S3_ENDPOINT'),
    region,
    forcePathStyle,
    credentials: accessKeyId ? { accessKeyId, secretAccessKey } : null,
    publicBaseUrl: httpUrl(env, 'DOCLOOM_S3_PUBLIC_BASE_URL'),
  };
}
