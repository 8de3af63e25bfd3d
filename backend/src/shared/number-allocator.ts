/**
 * Per-instance sequential numbers (job numbers, customer numbers) that do not serialise the
 * creations that take them. The process reads the instance's highest number once, then
 * hands out the next ones from memory; each one is confirmed by its caller with a
 * reservation stream appended with `no_stream`, which is what makes it unique: a number
 * already reserved (by another API process, typed by hand, or taken before a restart) is
 * refused and the allocator moves on to the next. Numbers stay unique per instance however
 * many processes hand them out; a creation that fails after its reservation leaves a gap.
 */
export interface NumberAllocatorOptions {
  /** The highest number the instance is known to use (a read model's; it may trail). */
  highest(instanceId: string): Promise<number>;
  /** Refused numbers in a row after which the highest number is read again (another process ran ahead). */
  resyncAfter?: number;
  /** Refused numbers after which a claim gives up. */
  maxProbes?: number;
}

interface InstanceCounter {
  /** The next number to hand out. */
  next: number;
}

export class NumberExhaustedError extends Error {
  override readonly name = 'NumberExhaustedError';
}

export class NumberAllocator {
  private readonly counters = new Map<string, InstanceCounter>();
  private readonly loading = new Map<string, Promise<InstanceCounter>>();

  constructor(private readonly options: NumberAllocatorOptions) {}

  /**
   * Hands out numbers to `claim` until it confirms one (answers true) and returns that
   * number; `claim` answers false when the number is taken. Its errors end the allocation
   * (the number it was given is not handed out again).
   */
  async allocate(instanceId: string, claim: (number: number) => Promise<boolean>): Promise<number> {
    const counter = await this.counter(instanceId);
    const resyncAfter = this.options.resyncAfter ?? 3;
    const maxProbes = this.options.maxProbes ?? 10_000;
    let refused = 0;
    for (let probe = 0; probe < maxProbes; probe++) {
      // Taken synchronously: two claims of this process never get the same number.
      const number = counter.next++;
      if (await claim(number)) return number;
      refused++;
      if (refused % resyncAfter === 0) {
        const highest = await this.options.highest(instanceId);
        counter.next = Math.max(counter.next, highest + 1);
      }
    }
    throw new NumberExhaustedError(`No free number found after ${maxProbes} tries`);
  }

  private async counter(instanceId: string): Promise<InstanceCounter> {
    const known = this.counters.get(instanceId);
    if (known) return known;
    let pending = this.loading.get(instanceId);
    if (!pending) {
      pending = (async () => {
        const highest = await this.options.highest(instanceId);
        const counter = this.counters.get(instanceId) ?? { next: highest + 1 };
        this.counters.set(instanceId, counter);
        return counter;
      })();
      this.loading.set(instanceId, pending);
      // A failed read is tried again by the next allocation.
      void pending.then(
        () => this.loading.delete(instanceId),
        () => this.loading.delete(instanceId),
      );
    }
    return await pending;
  }
}
