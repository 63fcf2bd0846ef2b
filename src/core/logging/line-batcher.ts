/**
 * Log lines gathered during one turn of the event loop and written with one call at its end. A write
 * to a pipe or a file is a system call: one per line (the access log writes one per request) was
 * about 15 % of the service's CPU in a profile of the bound-device login under load, while a turn
 * under load finishes many requests. Lines keep their order: `writeNow` (every line but the access
 * log's) writes what is pending first. What is pending at exit is written then; a process killed by
 * a signal without a handler (SIGKILL; Nest re-raises SIGTERM after its shutdown, whose last line
 * is written now) loses at most one turn of access-log lines.
 */
export class LineBatcher {
  private pending: string[] = [];
  private scheduled = false;

  constructor(private readonly out: (text: string) => void) {}

  readonly write = (line: string): void => {
    this.pending.push(line);
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(this.flush);
  };

  readonly writeNow = (line: string): void => {
    this.pending.push(line);
    this.flush();
  };

  readonly flush = (): void => {
    this.scheduled = false;
    if (this.pending.length === 0) return;
    const text = this.pending.join('\n') + '\n';
    this.pending = [];
    this.out(text);
  };
}

let stdout: LineBatcher | undefined;

/** The process's one batcher for stdout (stdout to a pipe or a file is written synchronously on exit). */
export function stdoutBatcher(): LineBatcher {
  if (!stdout) {
    stdout = new LineBatcher((text) => process.stdout.write(text));
    process.once('exit', stdout.flush);
  }
  return stdout;
}
