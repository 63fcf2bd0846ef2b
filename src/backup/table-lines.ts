import { createReadStream, existsSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { plainTableEntry, tableEntry } from './archive-manifest';

/** A table's entry in an unpacked archive (gzip'd, or plain in archives from before), or null when absent. */
export function tableEntryPath(dir: string, table: string): string | null {
  for (const entry of [tableEntry(table), plainTableEntry(table)]) if (existsSync(join(dir, entry))) return join(dir, entry);
  return null;
}

/** The rows of a table's entry, one JSON text per line, read as a stream. */
export function tableLines(path: string): AsyncIterable<string> {
  const file = createReadStream(path);
  const input: Readable = path.endsWith('.gz') ? file.pipe(createGunzip()) : file;
  file.on('error', (error) => input.destroy(error));
  return createInterface({ input, crlfDelay: Infinity });
}
