/**
 * Fills a data dir with document records straight through the store layer (far faster than rendering them), so
 * the scale benchmarks can start from a store that looks long-used. Not a benchmark itself.
 */
import fs from 'node:fs';
import path from 'node:path';
import { openStore, type DocumentRecord } from '../../server/store/index.js';

export async function fillDocuments(dataDir: string, count: number): Promise<number> {
  const started = performance.now();
  const store = await openStore(dataDir);
  const buckets = new Set<string>();
  const base = Date.now() - count * 60_000;
  for (let i = 0; i < count; i++) {
    const id = store.documents.nextId();
    const created = new Date(base + i * 60_000).toISOString();
    const record: DocumentRecord = {
      id,
      status: i % 50 === 0 ? 'failed' : 'completed',
      output_filename: `Invoice INV-${String(id).padStart(6, '0')}.pdf`,
      output_type: 'pdf',
      template_id: 1 + (i % 5),
      template_uuid: `00000000-0000-4000-8000-00000000000${1 + (i % 5)}`,
      editable: 0,
      password: null,
      test: i % 10 === 0 ? 1 : 0,
      locale: null,
      expires_at: new Date(Date.now() + 30 * 24 * 3600_000).toISOString(),
      expired: 0,
      error: i % 50 === 0 ? { code: 'invalid_image', message: 'Image "logo": the value is not an image.' } : null,
      pages: i % 50 === 0 ? null : 1,
      size: i % 50 === 0 ? null : 19_700,
      has_editable: false,
      created_at: created,
      updated_at: created,
    };
    await store.documents.insert(record, false);
    // A completed record has its file, as in a long-used store (the start-up reconcile checks that they match).
    if (record.status === 'completed') {
      const file = store.files.path(id, 'pdf');
      if (!buckets.has(path.dirname(file))) {
        fs.mkdirSync(path.dirname(file), { recursive: true });
        buckets.add(path.dirname(file));
      }
      fs.writeFileSync(file, '%PDF-1.4 stand-in\n');
    }
  }
  await store.documents.writeAll();
  await store.close();
  return performance.now() - started;
}
