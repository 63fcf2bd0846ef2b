import { ErrorCode } from '../../core/errors/error-code';
import { ServiceError } from '../../core/errors/service-error';

/** Imports (dry runs included) running at once for one admin account, and in one service process. */
export const IMPORTS_PER_AUTHOR = 2;
export const IMPORTS_PER_PROCESS = 4;

/**
 * How many imports run at once, per admin account and in this process: each holds a bounded amount
 * of memory (one row, one chunk, the codes of its file), so these bound the memory of them all.
 * Counts live only while imports run; an account's entry goes with its last import.
 */
export class ImportSlots {
  private readonly byAuthor = new Map<string, number>();
  private running = 0;

  constructor(
    private readonly perAuthor = IMPORTS_PER_AUTHOR,
    private readonly perProcess = IMPORTS_PER_PROCESS,
  ) {}

  /** A slot, or RATE_LIMITED; the returned function gives it back (once). */
  take(authorId: string): () => void {
    const mine = this.byAuthor.get(authorId) ?? 0;
    if (mine >= this.perAuthor || this.running >= this.perProcess) {
      const scope = mine >= this.perAuthor ? 'author' : 'service';
      throw new ServiceError(
        ErrorCode.RATE_LIMITED,
        scope === 'author'
          ? `You already have ${mine} card imports running (at most ${this.perAuthor} at once); retry when one has finished`
          : `The service is running ${this.running} card imports (at most ${this.perProcess} at once); retry in a moment`,
        {
          details: {
            scope,
            running: scope === 'author' ? mine : this.running,
            max: scope === 'author' ? this.perAuthor : this.perProcess,
          },
        },
      );
    }
    this.byAuthor.set(authorId, mine + 1);
    this.running++;
    let given = false;
    return () => {
      if (given) return;
      given = true;
      this.running--;
      const left = (this.byAuthor.get(authorId) ?? 1) - 1;
      if (left > 0) this.byAuthor.set(authorId, left);
      else this.byAuthor.delete(authorId);
    };
  }
}
