/**
 * A background round that runs one at a time: a kick while one runs asks for one more after it (a
 * kick says "there may be work", and the round under way may have claimed before it came), and a
 * stopped runner starts none. The outboxes' dispatchers (webhooks, mail) run their claim-and-send
 * rounds through it.
 */
export class SerialRounds {
  private running?: Promise<void>;
  private again = false;
  private stopped = false;

  constructor(
    private readonly round: () => Promise<void>,
    private readonly failed: (error: Error) => void,
  ) {}

  get isStopped(): boolean {
    return this.stopped;
  }

  /** Runs a round now, or once more after the current one. */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.round()
      .catch(this.failed)
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  /** Starts no more rounds; resolves when the one under way has ended. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.running;
  }
}
