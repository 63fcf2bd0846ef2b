import { readFileSync } from 'node:fs';

/** The backup and restore commands' arguments: one archive path and flags, each known. */
export interface CommandLine {
  file: string;
  flags: Set<string>;
  passphrase?: string;
}

/** A wrong invocation: the command prints the message with its usage and exits 2. */
export class UsageError extends Error {}

export function parseCommandLine(args: string[], knownFlags: string[]): CommandLine {
  const flags = new Set<string>();
  let file: string | undefined;
  let passphraseFile: string | undefined;
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i];
    if (arg === '--passphrase-file') {
      passphraseFile = args[(i += 1)];
      if (!passphraseFile) throw new UsageError('--passphrase-file needs a file');
    } else if (arg.startsWith('--')) {
      if (!knownFlags.includes(arg)) throw new UsageError(`unknown option ${arg}`);
      flags.add(arg);
    } else if (file === undefined) {
      file = arg;
    } else {
      throw new UsageError(`one archive at a time (got ${file} and ${arg})`);
    }
  }
  if (!file) throw new UsageError('name the archive');
  return { file, flags, ...(passphraseFile ? { passphrase: readPassphrase(passphraseFile) } : {}) };
}

/** The file's first line: a passphrase kept in a file never shows in `ps` or the shell's history. */
function readPassphrase(file: string): string {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw new UsageError(`cannot read the passphrase file ${file}`);
  }
  const passphrase = text.split(/\r?\n/)[0];
  if (passphrase.length < 8) throw new UsageError('the passphrase must be at least 8 characters');
  return passphrase;
}
