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
 * Window sign-ins (docs/api.md, "Browser sign-in"): the credential the one-time sign-in link gives one browser
 * window. It is not an API token: listed apart, revoked by "Sign out" and by the same window signing in again,
 * and it stops working (and is removed) after WINDOW_SIGN_IN_IDLE_HOURS without a request. A bound on how many
 * are kept stops a script trading codes in a loop from growing tokens.json without end; real windows never reach
 * it. Tokens made on purpose (the Tokens page, `docloom token create`, the API) are never removed by the service.
 */
export const WINDOW_SIGN_IN_IDLE_HOURS = 12;
export const WINDOW_SIGN_INS_KEPT = 20;
/** A token's last use is written at most this often (a write per request would be a disk write per request). */
const LAST_USED_RESOLUTION_MS = 60 * 60 * 1000;
/** Finer for window sign-ins, whose 12 h idle lifetime is measured from it. */
const WINDOW_LAST_USED_RESOLUTION_MS = 5 * 60 * 1000;
const HOUR_MS = 60 * 60 * 1000;

function lastActive(t: TokenRecord): number {
  return Date.parse(t.last_used_at ?? t.created_at);
}

/** Made by the sign-in link's code exchange (a window's credential), not on purpose. */
export function isWindowSignIn(t: TokenRecord): boolean {
  return t.source === 'sign-in';
}

/** When a window sign-in stops working if it is not used before (ISO). */
export function windowSignInExpiry(t: TokenRecord): string {
  return new Date(lastActive(t) + WINDOW_SIGN_IN_IDLE_HOURS * HOUR_MS).toISOString();
}

function idleTooLong(t: TokenRecord, now: number): boolean {
  return isWindowSignIn(t) && lastActive(t) < now - WINDOW_SIGN_IN_IDLE_HOURS * HOUR_MS;
}

export interface Caller {
  tokenId: number;
  name: string;
  readOnly: boolean;
  /** A window sign-in (the browser GUI's credential), not an API token. */
  window: boolean;
}

/** A new token's record (without id) and its secret part, the name and read-only flag validated. */
export function newToken(name: unknown, readOnly: unknown, source?: TokenRecord['source']): { input: Omit<TokenRecord, 'id'>; secret: string } {
  const v = new Violations();
  if (typeof name !== 'string' || name.trim() === '') v.add('name', 'The name field is required.');
  else if (name.length > 255) v.add('name', 'The name field must not be greater than 255 characters.');
  const ro = parseFlag(readOnly);
  if (ro === undefined) v.add('read_only', 'The read only field must be true or false.');
  v.throwIfAny();
  const secret = randomString(40);
  return {
    input: {
      name: (name as string).trim(),
      hash: sha256(secret).toString('hex'),
      read_only: ro === true,
      created_at: nowIso(),
      ...(source ? { source } : {}),
    },
    secret,
  };
}

/** The id a bearer names and the hash of its secret part; null when it is not shaped like a token. */
export function parseBearer(bearer: string): { id: number; given: Buffer } | null {
  const bar = bearer.indexOf('|');
  if (bar <= 0) return null;
  const idText = bearer.slice(0, bar);
  if (!/^\d{1,15}$/.test(idText)) return null;
  return { id: Number(idText), given: sha256(bearer.slice(bar + 1)) };
}

/**
 * What a presented token amounts to: refused (wrong secret), idle too long (to be removed), or accepted, with
 * `touch` set when its last use is to be recorded.
 */
export function judgeToken(record: TokenRecord, given: Buffer, now: number): { verdict: 'refused' | 'idle' } | { verdict: 'ok'; caller: Caller; touch: boolean } {
  const stored = Buffer.from(record.hash, 'hex');
  if (stored.length !== given.length || !crypto.timingSafeEqual(given, stored)) return { verdict: 'refused' };
  if (idleTooLong(record, now)) return { verdict: 'idle' };
  const window = isWindowSignIn(record);
  const resolution = window ? WINDOW_LAST_USED_RESOLUTION_MS : LAST_USED_RESOLUTION_MS;
  const touch = record.last_used_at === undefined || Date.parse(record.last_used_at) < now - resolution;
  return { verdict: 'ok', caller: { tokenId: record.id, name: record.name, readOnly: record.read_only, window }, touch };
}

/** The window sign-ins' lifetime (see WINDOW_SIGN_IN_IDLE_HOURS) as a removeWhere predicate. */
export function expiredSignIn(now: number): (t: TokenRecord, all: readonly TokenRecord[]) => boolean {
  return (t, all) => {
    if (!isWindowSignIn(t)) return false;
    if (idleTooLong(t, now)) return true;
    const newer = all.filter((o) => isWindowSignIn(o) && o !== t && (lastActive(o) > lastActive(t) || (lastActive(o) === lastActive(t) && o.id > t.id)));
    return newer.length >= WINDOW_SIGN_INS_KEPT;
  };
}

/**
 * Tokens over the data folder's token file, synchronously: the CLI's `token` commands, which run beside a service.
 * The service itself uses TokenAccess (services/token-access.ts), the same rules over either store backend.
 */
export class TokenService {
  constructor(private readonly repo: TokenRepository) {}

  create(name: unknown, readOnly: unknown = false, source?: TokenRecord['source']): { record: TokenRecord; token: string } {
    const { input, secret } = newToken(name, readOnly, source);
    const record = this.repo.create(input);
    return { record, token: `${record.id}|${secret}` };
  }

  list(): readonly TokenRecord[] {
    return this.repo.list();
  }

  revoke(id: number): void {
    if (!this.repo.remove(id)) throw notFound('Token');
  }

  /** Revokes a token if it still exists; false when it did not. */
  revokeIfPresent(id: number): boolean {
    return Number.isInteger(id) && this.repo.remove(id);
  }

  /** The caller behind a bearer token, or null. Never throws for malformed input. */
  verify(bearer: string): Caller | null {
    const parsed = parseBearer(bearer);
    const record = parsed && this.repo.get(parsed.id);
    if (!parsed || !record) return null;
    const now = Date.now();
    const judged = judgeToken(record, parsed.given, now);
    if (judged.verdict === 'idle') this.repo.remove(record.id);
    if (judged.verdict !== 'ok') return null;
    if (judged.touch) {
      try {
        this.repo.touch(record.id, new Date(now).toISOString());
      } catch {
        // Best effort (a full disk): the request is served all the same; the next use tries again.
      }
    }
    return judged.caller;
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

