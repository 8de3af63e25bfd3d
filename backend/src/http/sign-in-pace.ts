import { setTimeout as sleep } from 'node:timers/promises';
import { verifySecret } from '../shared/secrets.ts';

/**
 * Sign-in refusals take as long whether or not the account exists.
 *
 * Both paths hash the password exactly once (against the account's hash or a decoy), but a
 * refusal on an existing account also records the failed attempt (an append that feeds the
 * lockout), which an unknown name has nothing to record. So every "wrong credentials" answer
 * is held until the typical duration of a recorded refusal has passed since the attempt
 * began: a running estimate (exponentially weighted) of how long those took, times a margin.
 * The answers of both kinds then leave at the same time, a refusal on an existing account
 * only later when its own work took longer than usual.
 */
export class RefusalPace {
  private estimateMs = 0;

  constructor(
    /** Headroom over the running estimate, so most recorded refusals fall under it too. */
    private readonly margin = 1.25,
    /** A pathological estimate never holds an answer longer than this. */
    private readonly maxHoldMs = 2_000,
  ) {}

  /** Told how long a refusal that did the full work (hash and record) took. */
  observe(elapsedMs: number): void {
    this.estimateMs = this.estimateMs === 0 ? elapsedMs : this.estimateMs * 0.8 + elapsedMs * 0.2;
  }

  /** How long a refusal is held from its start, now. */
  targetMs(): number {
    return Math.min(this.maxHoldMs, this.estimateMs * this.margin);
  }

  /** Waits until the refusal that began at `startedAt` (performance.now()) may be answered. */
  async hold(startedAt: number): Promise<void> {
    const wait = this.targetMs() - (performance.now() - startedAt);
    if (wait > 0) await sleep(wait);
  }
}

/**
 * The password check every sign-in runs, exactly once per attempt, through this object:
 * the tests count calls on it to prove an unknown account costs the same hash as a known one.
 */
export const signInHashing = {
  verify: (secret: string, encoded: string): Promise<boolean> => verifySecret(secret, encoded),
};
