/** What the delivery pool has in flight, by endpoint and by project, so that a claim can leave out what is at its share. */
export class InFlight {
  private readonly attempts = new Map<Promise<void>, { endpointId: string; projectId: string }>();

  get size(): number {
    return this.attempts.size;
  }

  /** Tracks an attempt until it settles, then calls `freed` (the pool claims again). */
  add(delivery: { endpoint_id: string; project_id: string }, attempt: Promise<void>, freed: () => void): void {
    const tracked = attempt.finally(() => {
      this.attempts.delete(tracked);
      freed();
    });
    this.attempts.set(tracked, { endpointId: delivery.endpoint_id, projectId: delivery.project_id });
  }

  byEndpoint(): Map<string, number> {
    return this.count((a) => a.endpointId);
  }

  byProject(): Map<string, number> {
    return this.count((a) => a.projectId);
  }

  /** Settles when every attempt in flight now has ended. */
  async drained(): Promise<void> {
    await Promise.all(this.attempts.keys());
  }

  private count(key: (a: { endpointId: string; projectId: string }) => string): Map<string, number> {
    const counts = new Map<string, number>();
    for (const attempt of this.attempts.values()) counts.set(key(attempt), (counts.get(key(attempt)) ?? 0) + 1);
    return counts;
  }
}
