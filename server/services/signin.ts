/**
 * One-time sign-in codes for the GUI in a browser: `docloom serve` prints a link carrying a code; the page
 * trades it once (within 10 minutes) for a window sign-in named "GUI (browser)" — one credential per window, not
 * an API token (tokens.ts, WINDOW_SIGN_IN_IDLE_HOURS). A window that signs in again hands its old credential
 * along and it is revoked, so reloading sign-in links never piles credentials up. Codes live in memory only.
 */
import crypto from 'node:crypto';
import { randomString } from './tokens.js';
import type { TokenAccess } from './token-access.js';
import { validationError } from './errors.js';

export const SIGN_IN_CODE_MINUTES = 10;
const GUI_TOKEN_NAME = 'GUI (browser)';

export class SignInCodes {
  /** SHA-256 of the code → expiry (epoch ms). */
  readonly #codes = new Map<string, number>();

  constructor(private readonly tokens: TokenAccess) {}

  create(): string {
    this.#prune();
    const code = randomString(32);
    this.#codes.set(this.#key(code), Date.now() + SIGN_IN_CODE_MINUTES * 60_000);
    return code;
  }

  /**
   * Trades a code for a new window sign-in; the code stops working whatever the outcome. `previous` is the
   * bearer the window held until now, if any: when it is a window sign-in it is revoked (an API token never is).
   */
  async exchange(code: unknown, previous?: string): Promise<string> {
    const invalid = validationError({ code: ['The sign-in code is invalid or has expired.'] });
    if (typeof code !== 'string' || code.length === 0 || code.length > 200) {
      if (code === undefined || code === '') throw validationError({ code: ['The code field is required.'] });
      throw invalid;
    }
    const key = this.#key(code);
    const expires = this.#codes.get(key);
    this.#codes.delete(key);
    if (expires === undefined || expires < Date.now()) throw invalid;
    const { token } = await this.tokens.create(GUI_TOKEN_NAME, false, 'sign-in');
    const old = previous ? await this.tokens.verify(previous) : null;
    if (old?.window) await this.tokens.revokeWindowSignIn(old.tokenId);
    await this.tokens.pruneSignInTokens();
    return token;
  }

  #key(code: string): string {
    return crypto.createHash('sha256').update(code).digest('hex');
  }

  #prune(): void {
    const now = Date.now();
    for (const [key, expires] of this.#codes) if (expires < now) this.#codes.delete(key);
  }
}
