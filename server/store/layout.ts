/**
 * Where everything lives inside the data dir. The only place that knows the disk layout (docs/store.md).
 *
 *   meta.json                     schema version, creation time, whether the samples were offered
 *   secret.key                    HMAC key for signed download links (created once, mode 0600)
 *   service.lock                  pid and start time of the service using this data dir
 *   write.lock                    held during one change to tokens/templates/meta (lock.ts)
 *   tokens.json                   API tokens (SHA-256 hashes only)
 *   templates.json                template records
 *   settings.json                 settings changed at run time (the GUI's switches); absent until first changed
 *   templates/<uuid>/v<N>.<ext>   template files (.docx / .json), one per version still in use
 *   documents/records/shard-<n>.json   document records with ids n*1000+1 … (n+1)*1000 (a snapshot)
 *   documents/records/shard-<n>.g<gen>.jsonl   the shard's record log after the snapshot (documents.ts)
 *   documents/files/<n>/<id>.<ext>     generated files, bucketed the same way
 *   idempotency.jsonl             Idempotency-Key results (append-only, compacted on start)
 *   tmp/                          temp files before their atomic rename (those of writers gone: removed on start)
 */
import path from 'node:path';

export const SHARD_SIZE = 1000;

export function shardOf(id: number): number {
  return Math.floor((id - 1) / SHARD_SIZE);
}

export class Layout {
  constructor(readonly dataDir: string) {}

  get meta(): string {
    return path.join(this.dataDir, 'meta.json');
  }
  get secret(): string {
    return path.join(this.dataDir, 'secret.key');
  }
  get lock(): string {
    return path.join(this.dataDir, 'service.lock');
  }
  get writeLock(): string {
    return path.join(this.dataDir, 'write.lock');
  }
  get tokens(): string {
    return path.join(this.dataDir, 'tokens.json');
  }
  get templates(): string {
    return path.join(this.dataDir, 'templates.json');
  }
  get settings(): string {
    return path.join(this.dataDir, 'settings.json');
  }
  get templateFilesDir(): string {
    return path.join(this.dataDir, 'templates');
  }
  templateDir(uuid: string): string {
    return path.join(this.templateFilesDir, uuid);
  }
  templateFile(uuid: string, version: number, ext: string): string {
    return path.join(this.templateDir(uuid), `v${version}.${ext}`);
  }
  get documentRecordsDir(): string {
    return path.join(this.dataDir, 'documents', 'records');
  }
  shardFile(shard: number): string {
    return path.join(this.documentRecordsDir, `shard-${String(shard).padStart(6, '0')}.json`);
  }
  shardLog(shard: number, gen: number): string {
    return path.join(this.documentRecordsDir, `shard-${String(shard).padStart(6, '0')}.g${gen}.jsonl`);
  }
  get documentFilesDir(): string {
    return path.join(this.dataDir, 'documents', 'files');
  }
  documentBucket(id: number): string {
    return path.join(this.documentFilesDir, String(shardOf(id)).padStart(6, '0'));
  }
  documentFile(id: number, ext: string, variant = ''): string {
    return path.join(this.documentBucket(id), `${id}${variant ? `.${variant}` : ''}.${ext}`);
  }
  get idempotency(): string {
    return path.join(this.dataDir, 'idempotency.jsonl');
  }
  get tmp(): string {
    return path.join(this.dataDir, 'tmp');
  }
}
