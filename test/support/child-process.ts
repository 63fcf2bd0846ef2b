import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** How a program ended: its exit code (null when killed, with `signal` set) and its stdout then stderr. */
export interface Outcome {
  code: number | null;
  signal: string | null;
  output: string;
}

export interface RunOptions {
  cwd: string;
  /** Added to PATH and HOME, the only variables a program gets from the test's environment. */
  env?: Record<string, string>;
  /** Killed (SIGKILL) after this long. */
  timeoutMs: number;
}

/** Runs a program to its end, never rejecting: the test asserts on the outcome and shows the output. */
export function runProgram(file: string, args: string[], options: RunOptions): Promise<Outcome> {
  return new Promise((resolve) => {
    execFile(
      file,
      args,
      {
        cwd: options.cwd,
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', ...options.env },
        timeout: options.timeoutMs,
        killSignal: 'SIGKILL',
        maxBuffer: 16 * 1024 * 1024,
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
        resolve({ code, signal: error?.signal ?? null, output: `${stdout}${stderr}` });
      },
    );
  });
}

/** The file docs/quickstart.md writes with `cat > <file> <<'<TAG>' … <TAG>`, exactly as the reader copies it. */
export function quickstartScript(file: string): string {
  const quickstart = readFileSync(join(__dirname, '..', '..', 'docs', 'quickstart.md'), 'utf8');
  const found = new RegExp(`^cat > ${file.replace('.', '\\.')} <<'(\\w+)'\n([\\s\\S]*?)^\\1$`, 'm').exec(quickstart);
  if (!found) throw new Error(`docs/quickstart.md writes no ${file}`);
  return found[2];
}
