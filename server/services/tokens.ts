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

export interface Caller {
  tokenId: number;
  name: string;
  readOnly: boolean;
}

export class TokenService {
  constructor(private readonly repo: TokenRepository) {}

  create(name: unknown, readOnly: unknown = false): { record: TokenRecord; token: string } {
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
    });
    return { record, token: `${record.id}|${secret}` };
  }

  list(): readonly TokenRecord[] {
    return this.repo.list();
  }

  revoke(id: number): void {
    if (!this.repo.remove(id)) throw notFound('Token');
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

