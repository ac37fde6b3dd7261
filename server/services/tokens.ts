/**
 * API tokens (CONTRACT.md §3), shaped like Laravel Sanctum's: `<id>|<40 random characters>`. Only the SHA-256 of
 * the random part is stored; checking compares hashes in constant time. Tokens never reach a log line.
 */
import crypto from 'node:crypto';
import type { TokenRecord, TokenRepository } from '../store/index.js';
import { nowIso } from './datetime.js';
import { Violations, notFound } from './errors.js';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** `length` characters from ALPHABET, uniformly (rejection sampling keeps the modulo unbiased). */
export function randomString(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of crypto.randomBytes(length * 2)) {
      if (byte < 248) out += ALPHABET[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

function sha256(text: string): Buffer {
  return crypto.createHash('sha256').update(text).digest();
}

/**
 * Lifetime of the tokens the browser sign-in makes (docs/api.md, "Browser sign-in"). Every exchange makes a new
 * one and a browser never hands its token back, so without a rule they would pile up: a sign-in token that has
 * not been used for SIGN_IN_TOKEN_IDLE_DAYS stops working and is removed, and only the SIGN_IN_TOKENS_KEPT most
 * recently used sign-in tokens are kept (a new sign-in drops the oldest beyond that). Tokens made on purpose
 * (the Tokens page, `docloom token create`, the API) are never removed by the service.
 */
export const SIGN_IN_TOKEN_IDLE_DAYS = 30;
export const SIGN_IN_TOKENS_KEPT = 5;
/** A token's last use is written at most this often (a write per request would be a disk write per request). */
const LAST_USED_RESOLUTION_MS = 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

function lastActive(t: TokenRecord): number {
  return Date.parse(t.last_used_at ?? t.created_at);
}

export interface Caller {
  tokenId: number;
  name: string;
  readOnly: boolean;
}

export class TokenService {
  constructor(private readonly repo: TokenRepository) {}

  create(name: unknown, readOnly: unknown = false, source?: TokenRecord['source']): { record: TokenRecord; token: string } {
    const v = new Violations();
    if (typeof name !== 'string' || name.trim() === '') v.add('name', 'The name field is required.');
    else if (name.length > 255) v.add('name', 'The name field must not be greater than 255 characters.');
    const ro = parseFlag(readOnly);
    if (ro === undefined) v.add('read_only', 'The read only field must be true or false.');
    v.throwIfAny();
    const secret = randomString(40);
    const record = this.repo.create({
      name: (name as string).trim(),
      hash: sha256(secret).toString('hex'),
      read_only: ro === true,
      created_at: nowIso(),
      ...(source ? { source } : {}),
    });
    return { record, token: `${record.id}|${secret}` };
  }

  list(): readonly TokenRecord[] {
    return this.repo.list();
  }

  revoke(id: number): void {
    if (!this.repo.remove(id)) throw notFound('Token');
  }

  /** Revokes a token if it still exists (the desktop shell's window token at stop); false when it did not. */
  revokeIfPresent(id: number): boolean {
    return Number.isInteger(id) && this.repo.remove(id);
  }

  /** Applies the sign-in tokens' lifetime (see SIGN_IN_TOKEN_IDLE_DAYS); returns how many were removed. */
  pruneSignInTokens(now = Date.now()): number {
    return this.repo.removeWhere((t, all) => {
      if (t.source !== 'sign-in') return false;
      if (lastActive(t) < now - SIGN_IN_TOKEN_IDLE_DAYS * DAY_MS) return true;
      const newer = all.filter((o) => o.source === 'sign-in' && o !== t && (lastActive(o) > lastActive(t) || (lastActive(o) === lastActive(t) && o.id > t.id)));
      return newer.length >= SIGN_IN_TOKENS_KEPT;
    });
  }

  /** The caller behind a bearer token, or null. Never throws for malformed input. */
  verify(bearer: string): Caller | null {
    const bar = bearer.indexOf('|');
    if (bar <= 0) return null;
    const idText = bearer.slice(0, bar);
    if (!/^\d{1,15}$/.test(idText)) return null;
    const record = this.repo.get(Number(idText));
    if (!record) return null;
    const given = sha256(bearer.slice(bar + 1));
    const stored = Buffer.from(record.hash, 'hex');
    if (stored.length !== given.length || !crypto.timingSafeEqual(given, stored)) return null;
    const now = Date.now();
    if (record.source === 'sign-in' && lastActive(record) < now - SIGN_IN_TOKEN_IDLE_DAYS * DAY_MS) {
      this.repo.remove(record.id);
      return null;
    }
    if (record.last_used_at === undefined || Date.parse(record.last_used_at) < now - LAST_USED_RESOLUTION_MS) {
      try {
        this.repo.touch(record.id, new Date(now).toISOString());
      } catch {
        // Best effort (a full disk): the request is served all the same; the next use tries again.
      }
    }
    return { tokenId: record.id, name: record.name, readOnly: record.read_only };
  }
}

/** 0/1/true/false/"on"/"off" (form and JSON spellings) → boolean; undefined when it is none of these. */
export function parseFlag(value: unknown): boolean | undefined {
  if (value === undefined || value === null || value === '') return false;
  if (value === true || value === 1) return true;
  if (value === false || value === 0) return false;
  if (typeof value === 'string') {
    if (/^(1|true|on|yes)$/i.test(value)) return true;
    if (/^(0|false|off|no)$/i.test(value)) return false;
  }
  return undefined;
}

