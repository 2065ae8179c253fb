/**
 * A map that forgets its least recently used entries once it holds more than `maxEntries`
 * entries or `maxBytes` bytes (each entry's size as the caller counts it).
 */
export class Lru<V> {
  #entries = new Map<string, { value: V; bytes: number }>();
  #bytes = 0;

  constructor(
    readonly maxEntries: number,
    readonly maxBytes: number,
  ) {}

  get size(): number {
    return this.#entries.size;
  }

  get bytes(): number {
    return this.#bytes;
  }

  get(key: string): V | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    // Map keeps insertion order: moving the entry to the end marks it most recently used.
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return entry.value;
  }

  set(key: string, value: V, bytes: number): void {
    if (bytes > this.maxBytes) return;
    this.delete(key);
    this.#entries.set(key, { value, bytes });
    this.#bytes += bytes;
    for (const [oldest] of this.#entries) {
      if (this.#entries.size <= this.maxEntries && this.#bytes <= this.maxBytes) break;
      this.delete(oldest);
    }
  }

  delete(key: string): void {
    const entry = this.#entries.get(key);
    if (!entry) return;
    this.#entries.delete(key);
    this.#bytes -= entry.bytes;
  }

  clear(): void {
    this.#entries.clear();
    this.#bytes = 0;
  }
}
