/**
 * Idempotency-Key (CONTRACT.md §6): the same key with the same body answers the first response again; with
 * another body 422; while the first is still running 409. Keys are scoped to the token that sent them and kept
 * 24 hours (store/idempotency.ts keeps them across restarts). On a shared database a running key is also claimed
 * there (store/pg/idempotency.ts), so every instance answers 409 while any instance runs it.
 */
import crypto from 'node:crypto';
import type { IdempotencyClaim, IdempotencyRepo } from '../store/repositories.js';
import { ServiceError, validationError } from './errors.js';

export interface Replay {
  status: number;
  documentId: number;
}

export class Idempotency {
  readonly #inFlight = new Map<string, string>();

  /** `claimLeaseMs`: how long a shared claim outlives an instance that died holding it (DOCLOOM_QUEUE_LEASE_MS). */
  constructor(
    private readonly log: IdempotencyRepo,
    private readonly claimLeaseMs = 30_000,
  ) {}

  static hash(body: unknown): string {
    return crypto.createHash('sha256').update(JSON.stringify(body)).digest('hex');
  }

  /**
   * Runs `work` once per key: returns the stored outcome for a repeat, throws 409/422 as the contract says.
   * Only outcomes that made a document are stored (a request refused by validation may be fixed and sent again).
   */
  async run(tokenId: number, rawKey: string | undefined, bodyHash: string, work: () => Promise<Replay>): Promise<Replay & { replayed: boolean }> {
    if (rawKey === undefined) return { ...(await work()), replayed: false };
    if (rawKey.length === 0 || rawKey.length > 255) {
      throw validationError({ idempotency_key: ['The Idempotency-Key header must be between 1 and 255 characters.'] });
    }
    const key = `${tokenId}:${rawKey}`;
    const stillRunning = () => new ServiceError('conflict', 'A request with this Idempotency-Key is still being processed; retry when it has finished.');
    if (this.#inFlight.has(key)) throw stillRunning();
    // Marked in flight before the stored outcome is read, so a second request arriving meanwhile answers 409 — here
    // in memory, and on a shared database for every instance (before the read too: an outcome is stored before its
    // claim is released, so a request that gets the claim also sees the outcome of the one before).
    this.#inFlight.set(key, bodyHash);
    let shared: IdempotencyClaim | undefined;
    let done;
    try {
      if (this.log.claim) {
        shared = await this.log.claim(key, this.claimLeaseMs);
        if (!shared) throw stillRunning();
      }
      done = await this.log.get(key);
    } catch (err) {
      await shared?.release().catch(() => undefined);
      this.#inFlight.delete(key);
      throw err;
    }
    if (done) {
      await shared?.release().catch(() => undefined);
      this.#inFlight.delete(key);
      if (done.hash !== bodyHash) {
        throw validationError({ idempotency_key: ['This Idempotency-Key was already used with a different request.'] });
      }
      return { status: done.status, documentId: done.document_id, replayed: true };
    }
    try {
      const outcome = await work();
      await this.log.put({ key, hash: bodyHash, status: outcome.status, document_id: outcome.documentId, at: Date.now() });
      return { ...outcome, replayed: false };
    } finally {
      // Released before the answer goes out, so the client's next request with the key finds the outcome at once.
      // If the database cannot be reached, the claim lapses with its lease.
      await shared?.release().catch(() => undefined);
      this.#inFlight.delete(key);
    }
  }
}
