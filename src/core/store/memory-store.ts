import { SharedStore } from './shared-store';

interface Entry {
  value: string;
  expiresAt: number;
}

/** In-process SharedStore for the single-instance default. Expired keys are swept lazily and each minute. */
export class MemoryStore extends SharedStore {
  private readonly entries = new Map<string, Entry>();
  private readonly sweeper = setInterval(() => this.sweep(), 60_000).unref();

  async claim(key: string, ttlSeconds: number): Promise<boolean> {
    if (this.live(key)) return false;
    this.entries.set(key, { value: '1', expiresAt: Date.now() + ttlSeconds * 1000 });
    return true;
  }

  async increment(key: string, ttlSeconds: number, limit?: number | null): Promise<number | null> {
    const current = this.live(key);
    const next = (current ? Number(current.value) : 0) + 1;
    if (limit !== undefined && limit !== null && next > limit) return null;
    this.entries.set(key, { value: String(next), expiresAt: current?.expiresAt ?? Date.now() + ttlSeconds * 1000 });
    return next;
  }

  async decrement(key: string): Promise<void> {
    const current = this.live(key);
    if (current && Number(current.value) > 0) current.value = String(Number(current.value) - 1);
  }

  async get(key: string): Promise<string | null> {
    return this.live(key)?.value ?? null;
  }

  async getMany(keys: readonly string[]): Promise<Array<string | null>> {
    return keys.map((key) => this.live(key)?.value ?? null);
  }

  async set(key: string, value: string, ttlSeconds: number): Promise<void> {
    this.entries.set(key, { value, expiresAt: Date.now() + ttlSeconds * 1000 });
  }

  async delete(key: string): Promise<void> {
    this.entries.delete(key);
  }

  async ping(): Promise<void> {}

  close(): void {
    clearInterval(this.sweeper);
  }

  private live(key: string): Entry | undefined {
    const entry = this.entries.get(key);
    if (entry && entry.expiresAt <= Date.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  private sweep(): void {
    const now = Date.now();
    for (const [key, entry] of this.entries) if (entry.expiresAt <= now) this.entries.delete(key);
  }
}
