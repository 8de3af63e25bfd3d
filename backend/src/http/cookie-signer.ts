import { createHmac, timingSafeEqual } from 'node:crypto';
import { RecentlyUsed } from '../shared/recently-used.ts';

/** Signed values remembered: a session cookie each (when full, the least recently used is forgotten). */
const REMEMBERED_LIMIT = 20_000;
/** Longer values (no session id is) are signed each time and never remembered. */
const REMEMBERED_LENGTH = 200;

/**
 * The signer of signed cookies (the session cookie's `.sig`), in Keygrip's place and with its
 * signatures (HMAC-SHA1 of `name=value`, base64url): a cookie signed before still verifies.
 * Keygrip computed three HMACs and drew random bytes to check a signature, and one more HMAC
 * to sign it again, on every request (with the cookie set on every answer, 8 % of the API's
 * CPU on reads). Here a value's signature is computed once and remembered, and a signature is
 * compared in constant time. Only values signed here or whose signature matched are
 * remembered, so made-up cookies cannot fill the memory.
 */
export class CookieSigner {
  private readonly remembered = new RecentlyUsed<string, string>(REMEMBERED_LIMIT);

  constructor(private readonly key: string) {}

  sign(data: string): string {
    const known = this.remembered.get(data);
    if (known !== undefined) return known;
    const digest = this.compute(data);
    this.remember(data, digest);
    return digest;
  }

  /** 0 when `digest` is the signature of `data`, -1 when not (Keygrip's index of the key that signed it). */
  index(data: string, digest: string): number {
    const known = this.remembered.get(data);
    const expected = Buffer.from(known ?? this.compute(data));
    const given = Buffer.from(digest);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return -1;
    if (known === undefined) this.remember(data, digest);
    return 0;
  }

  verify(data: string, digest: string): boolean {
    return this.index(data, digest) === 0;
  }

  private compute(data: string): string {
    return createHmac('sha1', this.key).update(data).digest('base64url');
  }

  private remember(data: string, digest: string): void {
    if (data.length <= REMEMBERED_LENGTH) this.remembered.set(data, digest);
  }
}
