/**
 * The file storage contract (server/store/files/file-store.ts), one suite run unchanged against the data folder
 * and against S3 — s3rver on a loopback port (test/helpers/s3-server.ts), spoken to by the AWS SDK over HTTP —
 * then what only object storage has: cloud_url fetching the same bytes, a missing bucket named in the failure.
 */
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { Layout } from '../../server/store/layout.js';
import { DocumentFiles } from '../../server/store/document-files.js';
import type { FileStore } from '../../server/store/files/file-store.js';
import { localFileStore } from '../../server/store/files/local.js';
import { s3FileStore } from '../../server/store/files/s3.js';
import { parseS3Settings } from '../../server/store/files/s3-settings.js';
import { startS3Server } from '../helpers/s3-server.js';

const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'docloom-files-'));
const s3 = await startS3Server(['docloom-test']);
after(async () => {
  await s3.stop();
  fs.rmSync(temp, { recursive: true, force: true });
});

function localStore(): FileStore {
  const layout = new Layout(path.join(temp, 'data'));
  fs.mkdirSync(layout.tmp, { recursive: true });
  return localFileStore(new DocumentFiles(layout));
}

async function readAll(store: FileStore, id: number, ext: string, variant?: 'editable'): Promise<Buffer | undefined> {
  const file = await store.open(id, ext, variant);
  if (!file) return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of await file.stream()) chunks.push(chunk as Buffer);
  const bytes = Buffer.concat(chunks);
  assert.equal(bytes.length, file.size, 'size as stated');
  return bytes;
}

const backends: Array<[string, () => FileStore]> = [
  ['local data folder', localStore],
  ['S3 (s3rver on loopback)', () => s3FileStore(s3.settings())],
];

for (const [name, make] of backends) {
  describe(`file store contract: ${name}`, () => {
    const store = make();

    it('places a file durably and reads the same bytes back, streamed; the editable copy apart', async () => {
      const pdf = crypto.randomBytes(3 * 1024 * 1024 + 17);
      const placed = await store.place(1001, 'pdf', pdf);
      await placed.durable;
      assert.equal(placed.sha256, crypto.createHash('sha256').update(pdf).digest('hex'));
      assert.deepEqual(await readAll(store, 1001, 'pdf'), pdf);
      assert.equal(await store.open(1001, 'docx', 'editable'), undefined);
      const docx = Buffer.from('PK editable');
      await (await store.place(1001, 'docx', docx, 'editable')).durable;
      assert.deepEqual(await readAll(store, 1001, 'docx', 'editable'), docx);
      assert.deepEqual(await readAll(store, 1001, 'pdf'), pdf);
    });

    it('a prepared file is placed as place() would; a discarded one leaves nothing', async () => {
      const pdf = crypto.randomBytes(40_000);
      const prepared = store.prepare(1002, 'pdf');
      const placed = await prepared.place(pdf);
      await placed.durable;
      assert.equal(placed.sha256, crypto.createHash('sha256').update(pdf).digest('hex'));
      assert.deepEqual(await readAll(store, 1002, 'pdf'), pdf);
      prepared.discard();
      assert.deepEqual(await readAll(store, 1002, 'pdf'), pdf, 'discard after place keeps the file');
      await assert.rejects(prepared.place(pdf), /used twice/);
      const dropped = store.prepare(1003, 'pdf');
      dropped.discard();
      assert.equal(await store.open(1003, 'pdf'), undefined);
      await store.remove(1002, 'pdf');
    });

    it('answers undefined for a file that is not there', async () => {
      assert.equal(await store.open(424242, 'pdf'), undefined);
    });

    it('removes every file of a document; removing again is no error', async () => {
      await store.remove(1001, 'pdf');
      assert.equal(await store.open(1001, 'pdf'), undefined);
      assert.equal(await store.open(1001, 'docx', 'editable'), undefined);
      await store.remove(1001, 'pdf');
    });

    it('keeps a file of its own under a key (a batch\'s rows file), streamed in and out; removes it', async () => {
      const source = path.join(temp, `rows-${crypto.randomBytes(4).toString('hex')}.csv`);
      const rows = Buffer.concat([Buffer.from('name,amount\n'), crypto.randomBytes(2 * 1024 * 1024 + 5)]);
      fs.writeFileSync(source, rows);
      assert.equal(await store.openKey('batches/31/rows.csv'), undefined);
      await store.putKey('batches/31/rows.csv', source);
      assert.ok(fs.existsSync(source), 'the source is copied, not taken');
      const found = await store.openKey('batches/31/rows.csv');
      assert.equal(found?.size, rows.length);
      const chunks: Buffer[] = [];
      for await (const chunk of await found!.stream()) chunks.push(chunk as Buffer);
      assert.deepEqual(Buffer.concat(chunks), rows);
      await store.removeKey('batches/31/rows.csv');
      assert.equal(await store.openKey('batches/31/rows.csv'), undefined);
      await store.removeKey('batches/31/rows.csv');
    });
  });
}

describe('data folder: a prepared file', () => {
  const fresh = (): { files: DocumentFiles; layout: Layout } => {
    const layout = new Layout(fs.mkdtempSync(path.join(temp, 'prepared-')));
    fs.mkdirSync(layout.tmp, { recursive: true });
    return { files: new DocumentFiles(layout), layout };
  };
  const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 50));

  it('opens its temp file in tmp/ before the bytes exist, and renames that very file into place', async () => {
    const { files, layout } = fresh();
    const prepared = files.prepare(5, 'pdf');
    await settle();
    const temps = fs.readdirSync(layout.tmp);
    assert.equal(temps.length, 1, 'the temp file is open ahead');
    assert.match(temps[0], /^5\.pdf\.\d+\.[0-9a-f]+\.tmp$/, 'named after the document (a start removes a dead writer\'s)');
    const inode = fs.statSync(path.join(layout.tmp, temps[0])).ino;
    await (await prepared.place(Buffer.from('%PDF-1.7 five'))).durable;
    assert.deepEqual(fs.readdirSync(layout.tmp), [], 'renamed, not copied');
    assert.equal(fs.statSync(files.path(5, 'pdf')).ino, inode);
    assert.equal(fs.readFileSync(files.path(5, 'pdf'), 'utf8'), '%PDF-1.7 five');
  });

  it('discarded, its temp file goes; tmp/ removed meanwhile, it is placed all the same', async () => {
    const { files, layout } = fresh();
    const dropped = files.prepare(6, 'pdf');
    await settle();
    assert.equal(fs.readdirSync(layout.tmp).length, 1);
    dropped.discard();
    await settle();
    assert.deepEqual(fs.readdirSync(layout.tmp), []);
    assert.ok(!fs.existsSync(files.path(6, 'pdf')));
    const prepared = files.prepare(7, 'pdf');
    await settle();
    fs.rmSync(layout.tmp, { recursive: true });
    await (await prepared.place(Buffer.from('%PDF-1.7 seven'))).durable;
    assert.equal(fs.readFileSync(files.path(7, 'pdf'), 'utf8'), '%PDF-1.7 seven');
    assert.deepEqual(fs.readdirSync(layout.tmp), [], 'tmp/ made again, nothing left in it');
  });

  it('opens its temp file in the thread pool, not on the event loop; a discard made at once leaves nothing once it resolves', async () => {
    const { files, layout } = fresh();
    const opens: unknown[] = [];
    const patched = fs as { -readonly [K in keyof typeof fs]: (typeof fs)[K] };
    const openSync = fs.openSync;
    patched.openSync = ((...args: Parameters<typeof fs.openSync>) => {
      opens.push(args[0]);
      return openSync(...args);
    }) as typeof fs.openSync;
    let dropped;
    try {
      dropped = files.prepare(10, 'pdf');
    } finally {
      patched.openSync = openSync;
    }
    assert.deepEqual(opens, [], 'no synchronous open');
    // The open may still be under way in the pool: the discard waits for it, then removes what it made.
    await dropped.discard();
    assert.deepEqual(fs.readdirSync(layout.tmp), []);
    await settle();
    assert.deepEqual(fs.readdirSync(layout.tmp), [], 'nothing made after the discard either');
  });

  it('a discard whose removal fails still resolves (it never rejects) and closes its descriptor; the temp file is left to the next start', async () => {
    const { files, layout } = fresh();
    const prepared = files.prepare(11, 'pdf');
    await settle();
    const [temp] = fs.readdirSync(layout.tmp);
    const tempPath = path.join(layout.tmp, temp);
    const patched = fs as { -readonly [K in keyof typeof fs]: (typeof fs)[K] };
    const rmSync = fs.rmSync;
    // What Windows answers while a virus scanner holds a new file open.
    patched.rmSync = ((target: fs.PathLike, options?: fs.RmOptions) => {
      if (String(target) === tempPath) throw Object.assign(new Error(`EBUSY: resource busy or locked, unlink '${tempPath}'`), { code: 'EBUSY' });
      return rmSync(target, options);
    }) as typeof fs.rmSync;
    try {
      await assert.doesNotReject(prepared.discard());
    } finally {
      patched.rmSync = rmSync;
    }
    const open = fs.readdirSync('/proc/self/fd').map((fd) => { try { return fs.readlinkSync(`/proc/self/fd/${fd}`); } catch { return ''; } });
    assert.ok(!open.includes(tempPath), 'the temp file\'s descriptor is closed');
  });

  it('a temp file that cannot be opened fails place() with that error, and nothing is left', async () => {
    const { files, layout } = fresh();
    // A file where tmp/ should be: the open fails with ENOTDIR, which is no reason to make tmp/ again.
    fs.rmSync(layout.tmp, { recursive: true });
    fs.writeFileSync(layout.tmp, 'not a folder');
    const prepared = files.prepare(8, 'pdf');
    await assert.rejects(prepared.place(Buffer.from('x')), { code: 'ENOTDIR' });
    assert.ok(!fs.existsSync(files.path(8, 'pdf')));
  });

  it('an open that failed as the render started is tried again when the bytes are placed (the disk may have room again)', async () => {
    const { files, layout } = fresh();
    fs.rmSync(layout.tmp, { recursive: true });
    fs.writeFileSync(layout.tmp, 'not a folder');
    const prepared = files.prepare(9, 'pdf');
    // Put right while the document renders: the failure of the open ahead is not the document's.
    fs.rmSync(layout.tmp);
    fs.mkdirSync(layout.tmp);
    await (await prepared.place(Buffer.from('%PDF-1.7 nine'))).durable;
    assert.equal(fs.readFileSync(files.path(9, 'pdf'), 'utf8'), '%PDF-1.7 nine');
    assert.deepEqual(fs.readdirSync(layout.tmp), []);
  });
});

it('a key never climbs out of the data folder', async () => {
  await assert.rejects(() => localStore().putKey('batches/../../etc/rows.csv', new URL(import.meta.url).pathname), /not a file key/);
});

describe('S3: the cloud copy and failures', () => {
  it('cloud_id names the object; cloud_url fetches the same bytes until the document expires; gone once removed', async () => {
    const store = s3FileStore(s3.settings());
    assert.equal(await localStore().cloud(7, 'pdf', new Date(Date.now() + 60_000).toISOString()), null);
    const bytes = crypto.randomBytes(50_000);
    await (await store.place(7, 'pdf', bytes)).durable;
    const cloud = await store.cloud(7, 'pdf', new Date(Date.now() + 3_600_000).toISOString());
    assert.equal(cloud?.cloud_id, 'documents/7/output.pdf');
    assert.ok(fs.existsSync(path.join(s3.directory, 'docloom-test', 'documents', '7')), 's3rver holds the object on disk');
    const signed = new URL(cloud!.cloud_url);
    assert.equal(signed.searchParams.get('X-Amz-Expires'), '3600');
    const res = await fetch(cloud!.cloud_url);
    assert.equal(res.status, 200);
    assert.deepEqual(Buffer.from(await res.arrayBuffer()), bytes);
    await store.remove(7, 'pdf');
    assert.equal((await fetch(cloud!.cloud_url)).status, 404);
  });

  it('with DOCLOOM_S3_PUBLIC_BASE_URL, cloud_url is that base and the key', async () => {
    const store = s3FileStore({ ...s3.settings(), publicBaseUrl: 'https://files.example.com/docs' });
    assert.deepEqual(await store.cloud(8, 'docx', new Date().toISOString()), { cloud_id: 'documents/8/output.docx', cloud_url: 'https://files.example.com/docs/documents/8/output.docx' });
  });

  it('a missing bucket fails with storage_error naming the bucket', async () => {
    const store = s3FileStore(s3.settings('no-such-bucket'));
    await assert.rejects(store.place(9, 'pdf', Buffer.from('x')), (err: Error & { code?: string }) => {
      assert.equal(err.code, 'storage_error');
      assert.match(err.message, /^object storage bucket "no-such-bucket": storing documents\/9\/output\.pdf failed \(HTTP 404\): NoSuchBucket/);
      return true;
    });
    await assert.rejects(store.open(9, 'pdf'), /object storage bucket "no-such-bucket": reading/);
  });

  it('refused credentials fail with storage_error naming the bucket, never the key or secret', async () => {
    const store = s3FileStore({ ...s3.settings(), credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI-secret' } });
    await assert.rejects(store.place(9, 'pdf', Buffer.from('x')), (err: Error & { code?: string }) => {
      assert.equal(err.code, 'storage_error');
      assert.match(err.message, /^object storage bucket "docloom-test": storing documents\/9\/output\.pdf failed \(HTTP 403\): InvalidAccessKeyId/);
      assert.doesNotMatch(err.message, /wJalrXUtnFEMI|AKIDEXAMPLE/);
      return true;
    });
  });

  it('an unreachable endpoint fails with storage_error naming the bucket', async () => {
    const store = s3FileStore({ ...s3.settings(), endpoint: 'http://127.0.0.1:9' });
    await assert.rejects(store.place(10, 'pdf', Buffer.from('x')), (err: Error & { code?: string }) => err.code === 'storage_error' && /^object storage bucket "docloom-test": storing/.test(err.message));
  });
});

describe('DOCLOOM_S3_* settings', () => {
  it('none set: files stay in the data folder', () => {
    assert.equal(parseS3Settings({}), null);
  });

  it('reads a full set', () => {
    assert.deepEqual(
      parseS3Settings({
        DOCLOOM_S3_BUCKET: 'team-docs',
        DOCLOOM_S3_ENDPOINT: 'http://127.0.0.1:9000/',
        DOCLOOM_S3_REGION: 'eu-central-1',
        DOCLOOM_S3_FORCE_PATH_STYLE: 'true',
        DOCLOOM_S3_ACCESS_KEY_ID: 'id',
        DOCLOOM_S3_SECRET_ACCESS_KEY: 'secret',
        DOCLOOM_S3_PUBLIC_BASE_URL: 'https://cdn.example.com/x/',
      }),
      {
        bucket: 'team-docs',
        endpoint: 'http://127.0.0.1:9000',
        region: 'eu-central-1',
        forcePathStyle: true,
        credentials: { accessKeyId: 'id', secretAccessKey: 'secret' },
        publicBaseUrl: 'https://cdn.example.com/x',
      },
    );
  });

  const refused: Array<[Record<string, string>, RegExp]> = [
    [{ DOCLOOM_S3_ENDPOINT: 'http://x' }, /^DOCLOOM_S3_ENDPOINT is set but DOCLOOM_S3_BUCKET is not/],
    [{ DOCLOOM_S3_BUCKET: 'Bad_Bucket' }, /^DOCLOOM_S3_BUCKET must be a bucket name/],
    [{ DOCLOOM_S3_BUCKET: 'ok-bucket', DOCLOOM_S3_ENDPOINT: 'ftp://x' }, /^DOCLOOM_S3_ENDPOINT must be an http/],
    [{ DOCLOOM_S3_BUCKET: 'ok-bucket', DOCLOOM_S3_ENDPOINT: 'http://user:pw@x' }, /^DOCLOOM_S3_ENDPOINT must not carry credentials/],
    [{ DOCLOOM_S3_BUCKET: 'ok-bucket', DOCLOOM_S3_REGION: 'EU West' }, /^DOCLOOM_S3_REGION must be a region name/],
    [{ DOCLOOM_S3_BUCKET: 'ok-bucket', DOCLOOM_S3_FORCE_PATH_STYLE: 'maybe' }, /^DOCLOOM_S3_FORCE_PATH_STYLE must be true or false/],
    [{ DOCLOOM_S3_BUCKET: 'ok-bucket', DOCLOOM_S3_SECRET_ACCESS_KEY: 'hunter22' }, /^DOCLOOM_S3_ACCESS_KEY_ID and DOCLOOM_S3_SECRET_ACCESS_KEY go together/],
    [{ DOCLOOM_S3_BUCKET: 'ok-bucket', DOCLOOM_S3_PUBLIC_BASE_URL: 'files/' }, /^DOCLOOM_S3_PUBLIC_BASE_URL must be an http/],
  ];
  for (const [env, message] of refused) {
    it(`refuses ${JSON.stringify(env)} naming the setting`, () => {
      assert.throws(() => parseS3Settings(env), (err: Error) => message.test(err.message) && !err.message.includes('hunter22'));
    });
  }
});
