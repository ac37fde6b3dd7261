/**
 * A batch row's document record as the batch's settings make it (named, carrying batch_id and batch_row), before
 * its render: `pending`, no outcome. The desktop's runner writes it once rendered, with its outcome over these
 * fields; the team server's feeder queues it as it is.
 */
import type { BatchRecord, DocumentRecord } from '../store/index.js';
import { addMinutes, nowIso } from '../services/datetime.js';

export function rowDocument(b: BatchRecord, id: number, row: number, name: string): DocumentRecord {
  const now = nowIso();
  return {
    id,
    status: 'pending',
    output_filename: name,
    output_type: b.output_type,
    template_id: b.template_id,
    template_uuid: b.template_uuid,
    editable: 0,
    password: b.password,
    test: b.test,
    locale: b.locale,
    expires_at: addMinutes(now, b.expiration),
    expired: 0,
    error: null,
    pages: null,
    size: null,
    has_editable: false,
    batch_id: b.id,
    batch_row: row,
    created_at: now,
    updated_at: now,
  };
}
