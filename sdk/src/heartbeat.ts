import { SESSION_ENDED_CODES } from './error-codes';
import { Result } from './result';
import { HeartbeatData } from './types';

export interface HeartbeatOptions {
  /** Time between heartbeats; default the program's interval from the login answer, else 60 s. */
  intervalMs?: number;
  /** The session is over (SESSION_INVALID, SESSION_TYPE_MISMATCH): it is already cleared; leave protected functions. */
  onSessionEnded?: (result: Result<HeartbeatData>) => void;
  /** A heartbeat failed for another reason (network, quota...); the loop goes on. */
  onError?: (result: Result<HeartbeatData>) => void;
  /** A heartbeat succeeded. */
  onBeat?: (result: Result<HeartbeatData>) => void;
}

export interface HeartbeatHandle {
  stop(): void;
  readonly running: boolean;
}

/**
 * Beats every `intervalMs` (timers chained, so beats never overlap) until stopped, until the
 * session ends, or until the client no longer holds a session (`beat` returns undefined).
 */
export class HeartbeatLoop implements HeartbeatHandle {
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly beat: () => Promise<Result<HeartbeatData> | undefined>,
    private readonly intervalMs: number,
    private readonly options: HeartbeatOptions,
  ) {
    this.schedule();
  }

  get running(): boolean {
    return !this.stopped;
  }

  /** The session is over: stop, then tell the owner once (whoever saw the answer first). */
  end(result: Result<HeartbeatData>): void {
    if (this.stopped) return;
    this.stop();
    this.options.onSessionEnded?.(result);
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => void this.tick(), this.intervalMs);
  }

  private async tick(): Promise<void> {
    const result = await this.beat();
    if (this.stopped) return;
    if (result === undefined) return this.stop();
    if (!result.success && SESSION_ENDED_CODES.includes(result.code)) return this.end(result);
    this.schedule(); // before the callback, so a throwing callback cannot end the loop
    (result.success ? this.options.onBeat : this.options.onError)?.(result);
  }
}
