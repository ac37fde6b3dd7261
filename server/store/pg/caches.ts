/**
 * The caches of one instance's PostgreSQL repositories (docs/team-server.md, "Caches"): token records by id, and
 * template records by uuid and by id. Invalidated by the notifications the tokens and templates tables' triggers
 * send on every update and delete (schema 6): `tokens:<id>` drops one token, `tokens:*` (a TRUNCATE) all of them,
 * any `templates:…` every template (they change seldom; one rule for uuid and id keys).
 */
import type { TemplateRecord, TokenRecord } from '../records.js';
import { RecordCache } from './cache.js';
import type { PgListener } from './listener.js';

export const CACHE_CHANNEL = 'docloom_cache';
/**
 * The longest a record is answered from the cache. The backstop for a notification that never arrived while the
 * connection looked alive (a cut that sent no error): reads by a revoked token stop within it even then.
 */
export const CACHE_TTL_MS = 5_000;

export interface PgCaches {
  tokens: RecordCache<number, TokenRecord>;
  templates: RecordCache<string, TemplateRecord>;
}

export function openCaches(listener: PgListener, ttlMs: number): PgCaches {
  const caches: PgCaches = { tokens: new RecordCache(listener, ttlMs), templates: new RecordCache(listener, ttlMs) };
  listener.on(CACHE_CHANNEL, (payload) => {
    const [table, key] = payload.split(':');
    if (table === 'tokens' && /^\d+$/.test(key ?? '')) caches.tokens.invalidate(Number(key));
    else if (table === 'tokens') caches.tokens.clear();
    else if (table === 'templates') caches.templates.clear();
    else {
      caches.tokens.clear();
      caches.templates.clear();
    }
  });
  return caches;
}
