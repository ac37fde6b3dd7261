/**
 * API tokens for the service (CONTRACT.md §3) over the repository interface, so the same rules (services/tokens.ts)
 * hold on the data folder and on a database several instances share: a token made through one instance works on
 * every other at once, and a revoked one stops everywhere.
 */
import type { TokenRecord } from '../store/index.js';
import type { TokenRepo } from '../store/repositories.js';
import { notFound } from './errors.js';
import { expiredSignIn, isWindowSignIn, judgeToken, newToken, parseBearer, type Caller } from './tokens.js';

export class TokenAccess {
  constructor(private readonly repo: TokenRepo) {}

  async create(name: unknown, readOnly: unknown = false, source?: TokenRecord['source']): Promise<{ record: TokenRecord; token: string }> {
    const { input, secret } = newToken(name, readOnly, source);
    const record = await this.repo.create(input);
    return { record, token: `${record.id}|${secret}` };
  }

  list(): Promise<readonly TokenRecord[]> {
    return this.repo.list();
  }

  async revoke(id: number): Promise<void> {
    if (!(await this.repo.remove(id))) throw notFound('Token');
  }

  /** Revokes a token if it still exists (the desktop shell's window token at stop); false when it did not. */
  async revokeIfPresent(id: number): Promise<boolean> {
    return Number.isInteger(id) && (await this.repo.remove(id));
  }

  /** Revokes a window sign-in; false when `id` is not one (an API token is never revoked this way). */
  async revokeWindowSignIn(id: number): Promise<boolean> {
    const record = await this.repo.get(id);
    return record !== undefined && isWindowSignIn(record) && (await this.repo.remove(id));
  }

  /** Applies the window sign-ins' lifetime (see WINDOW_SIGN_IN_IDLE_HOURS); returns how many were removed. */
  pruneSignInTokens(now = Date.now()): Promise<number> {
    return this.repo.removeWhere(expiredSignIn(now));
  }

  /**
   * The caller behind a bearer token, or null. Never throws for malformed input. `cached`: the record may come from
   * this instance's cache on a shared database (docs/team-server.md, "Caches") — only for reads and for writes
   * that check the token again as they store (a document's create). Anything but a plain acceptance is judged
   * again on a fresh read: a cached copy only ever holds an older last use, and nothing is removed on its word.
   */
  async verify(bearer: string, options: { cached?: boolean } = {}): Promise<Caller | null> {
    const parsed = parseBearer(bearer);
    if (!parsed) return null;
    const cachedGet = options.cached ? this.repo.cachedGet : undefined;
    if (cachedGet) {
      const record = await cachedGet.call(this.repo, parsed.id);
      const judged = record && judgeToken(record, parsed.given, Date.now());
      if (judged?.verdict === 'ok' && !judged.touch) return judged.caller;
    }
    const record = await this.repo.get(parsed.id);
    if (!record) return null;
    const now = Date.now();
    const judged = judgeToken(record, parsed.given, now);
    if (judged.verdict === 'idle') await this.repo.remove(record.id);
    if (judged.verdict !== 'ok') return null;
    if (judged.touch) {
      // Best effort (a full disk, a database hiccup): the request is served all the same; the next use tries again.
      await this.repo.touch(record.id, new Date(now).toISOString()).catch(() => undefined);
    }
    return judged.caller;
  }
}
