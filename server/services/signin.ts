/**
 * One-time sign-in codes for the GUI in a browser: `docloom serve` prints a link carrying a code; the page
 * trades it once (within 10 minutes) for a fresh token named "GUI (browser)". Codes live in memory only.
 * The tokens made here have a lifetime (TokenService.pruneSignInTokens): each exchange also drops the sign-in
 * tokens idle for 30 days and those beyond the 5 most recently used.
 */
import crypto from 'node:crypto';
import { randomString, type TokenService } from './tokens.js';
import { validationError } from './errors.js';

export const SIGN_IN_CODE_MINUTES = 10;
const GUI_TOKEN_NAME = 'GUI (browser)';

export class SignInCodes {
  /** SHA-256 of the code → expiry (epoch ms). */
  readonly #codes = new Map<string, number>();

  constructor(private readonly tokens: TokenService) {}

  create(): string {
    this.#prune();
    const code = randomString(32);
    this.#codes.set(this.#key(code), Date.now() + SIGN_IN_CODE_MINUTES * 60_000);
    return code;
  }

  /** Trades a code for a new token; the code stops working whatever the outcome. */
  exchange(code: unknown): string {
    const invalid = validationError({ code: ['The sign-in code is invalid or has expired.'] });
    if (typeof code !== 'string' || code.length === 0 || code.length > 200) {
      if (code === undefined || code === '') throw validationError({ code: ['The code field is required.'] });
      throw invalid;
    }
    const key = this.#key(code);
    const expires = this.#codes.get(key);
    this.#codes.delete(key);
    if (expires === undefined || expires < Date.now()) throw invalid;
    const { token } = this.tokens.create(GUI_TOKEN_NAME, false, 'sign-in');
    this.tokens.pruneSignInTokens();
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
