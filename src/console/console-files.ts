import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import { gzipSync } from 'node:zlib';

/** One file of the built console, ready to send: its bytes, their gzip when smaller, and its headers. */
export interface ConsoleFile {
  body: Buffer;
  /** Made on the first request that accepts it (every test app loads the console; few ask for it). */
  gzipped: () => Buffer | undefined;
  contentType: string;
  etag: string;
  /** Hashed build assets never change under their name; the page itself is revalidated every time. */
  immutable: boolean;
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};
const COMPRESSIBLE = new Set(['.html', '.js', '.css', '.json', '.svg', '.txt']);

/**
 * Where `npm run build` puts the console (console/dist of the checkout). From the compiled server
 * (dist/src/console or another out dir at the root) it is three folders up; from the TypeScript
 * sources (tests), two.
 */
export function defaultConsoleDir(): string {
  const candidates = [join(__dirname, '..', '..', '..', 'console', 'dist'), join(__dirname, '..', '..', 'console', 'dist')];
  return candidates.find((dir) => existsSync(join(dir, 'index.html'))) ?? candidates[0];
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir)
    .filter((name) => !name.startsWith('.'))
    .flatMap((name) => (statSync(join(dir, name)).isDirectory() ? filesUnder(join(dir, name)) : [join(dir, name)]));
}

/**
 * The built console, read into memory once at start (a few megabytes): serving it then touches no
 * disk, and a request can only ever get one of these files — no path is ever joined from a URL.
 * Keys are URL paths below /console/ (`index.html`, `assets/index-1a2b.js`). Undefined when the
 * console has not been built.
 */
export function loadConsoleFiles(dir: string): Map<string, ConsoleFile> | undefined {
  if (!existsSync(join(dir, 'index.html'))) return undefined;
  const files = new Map<string, ConsoleFile>();
  for (const path of filesUnder(dir)) {
    const body = readFileSync(path);
    const extension = extname(path).toLowerCase();
    let gzipped: Buffer | null | undefined;
    const key = relative(dir, path).split(sep).join('/');
    files.set(key, {
      body,
      gzipped: () => {
        if (gzipped === undefined) {
          const packed = COMPRESSIBLE.has(extension) ? gzipSync(body, { level: 9 }) : null;
          gzipped = packed && packed.length < body.length ? packed : null;
        }
        return gzipped ?? undefined;
      },
      contentType: CONTENT_TYPES[extension] ?? 'application/octet-stream',
      etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`,
      immutable: key.startsWith('assets/'),
    });
  }
  return files;
}
