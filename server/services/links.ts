/**
 * Signed, time-limited download links (CONTRACT.md §6): `…/api/document/{id}/download?expires=<unix s>&signature=<hex>`
 * where signature = HMAC-SHA256(secret, "<variant>:<id>:<expires>"). A fresh link (a new expiry) is made every
 * time a record is shown, so a client that re-reads the record always holds a working link.
 */
import crypto from 'node:crypto';

export type LinkVariant = 'download' | 'editable';

export class SignedLinks {
  constructor(
    private readonly secret: Buffer,
    private readonly baseUrl: () => string,
    private readonly minutes: number,
  ) {}

  url(variant: LinkVariant, id: number, now = Date.now()): string {
    const expires = Math.floor(now / 1000) + this.minutes * 60;
    return `${this.baseUrl()}/api/document/${id}/${variant}?expires=${expires}&signature=${this.#sign(variant, id, expires)}`;
  }

  /** 'ok', or why the link is refused. */
  check(variant: LinkVariant, id: number, expires: unknown, signature: unknown, now = Date.now()): 'ok' | 'invalid' | 'expired' {
    if (typeof expires !== 'string' || typeof signature !== 'string' || !/^\d{1,12}$/.test(expires) || !/^[0-9a-f]{64}$/.test(signature)) {
      return 'invalid';
    }
    const expected = Buffer.from(this.#sign(variant, id, Number(expires)), 'hex');
    if (!crypto.timingSafeEqual(expected, Buffer.from(signature, 'hex'))) return 'invalid';
    return Number(expires) * 1000 < now ? 'expired' : 'ok';
  }

  #sign(variant: LinkVariant, id: number, expires: number): string {
    return crypto.createHmac('sha256', this.secret).update(`${variant}:${id}:${expires}`).digest('hex');
  }
}
