/**
 * A map of at most `limit` entries that, to take a new one when full, forgets the entry read or
 * written longest ago: what is used often stays however many others come and go (a cache
 * dropped whole when full loses its hottest entries with the rest, and they are computed again).
 */
export class RecentlyUsed<K, V> {
  // A Map iterates in insertion order: an entry used again is moved to the end, so the first is the least recent.
  private readonly entries = new Map<K, V>();

  constructor(private readonly limit: number) {}

  get size(): number {
    return this.entries.size;
  }

  get(key: K): V | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  set(key: K, value: V): void {
    this.entries.delete(key);
    if (this.entries.size >= this.limit) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(key, value);
  }

  clear(): void {
    this.entries.clear();
  }
}
