import { createCipheriv, createDecipheriv, createHash, randomBytes, scrypt as scryptCallback } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { open, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { constants } from 'node:zlib';
import * as tar from 'tar';
import { ArchiveRefused, MANIFEST_ENTRY } from './archive-manifest';

/**
 * The tar's own gzip: its table entries are gzip'd already (snapshot-export.ts), so the fastest
 * level, which still shrinks the uploaded files, and no CPU spent compressing twice.
 */
const OUTER_GZIP = { level: constants.Z_BEST_SPEED };

/**
 * An archive is a gzip'd tar (`tar tzf` lists it). Encrypted with a passphrase, the whole of it is
 * sealed with AES-256-GCM under a key from scrypt: MAGIC, salt, nonce, the ciphertext, then the tag.
 */
const MAGIC = Buffer.from('CKBACKUP-AES256GCM-1\n');
const SALT_BYTES = 16;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
/** scrypt's cost: N = 2^15, r = 8 (32 MiB, about 0.1 s): a guessed passphrase costs as much. */
const SCRYPT = { N: 1 << 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };

const scrypt = promisify(scryptCallback) as (password: string, salt: Buffer, keylen: number, options: object) => Promise<Buffer>;

/** SHA-256 of a file, hex. */
export async function fileDigest(path: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(path), hash);
  return hash.digest('hex');
}

/** The files under `dir`, as archive paths (forward slashes), sorted. */
export async function listEntries(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .sort();
}

/**
 * Packs `dir` (manifest first) into `file`, under a temporary name renamed when complete: a failed
 * or interrupted backup leaves no archive behind.
 */
export async function packArchive(dir: string, file: string, passphrase?: string): Promise<void> {
  const pending = `${file}.partial-${process.pid}`;
  try {
    const entries = [MANIFEST_ENTRY, ...(await listEntries(dir)).filter((entry) => entry !== MANIFEST_ENTRY)];
    if (!passphrase) {
      await tar.c({ gzip: OUTER_GZIP, file: pending, cwd: dir, portable: true }, entries);
    } else {
      const salt = randomBytes(SALT_BYTES);
      const nonce = randomBytes(NONCE_BYTES);
      const cipher = createCipheriv('aes-256-gcm', await scrypt(passphrase, salt, 32, SCRYPT), nonce);
      const out = createWriteStream(pending, { mode: 0o600 });
      out.write(Buffer.concat([MAGIC, salt, nonce]));
      await pipeline(tar.c({ gzip: OUTER_GZIP, cwd: dir, portable: true }, entries), cipher, out, { end: false });
      await new Promise<void>((resolve, reject) =>
        out.end(cipher.getAuthTag(), (error?: Error | null) => (error ? reject(error) : resolve())),
      );
    }
    await rename(pending, file);
  } catch (error) {
    await rm(pending, { force: true });
    throw error;
  }
}

export async function isEncrypted(file: string): Promise<boolean> {
  const handle = await open(file, 'r');
  try {
    const head = Buffer.alloc(MAGIC.length);
    await handle.read(head, 0, MAGIC.length, 0);
    return head.equals(MAGIC);
  } finally {
    await handle.close();
  }
}

/**
 * Unpacks `file` into `dir` (which must be empty). An encrypted archive is opened with `passphrase`
 * into `dir`'s sibling first, and only a tag that checks lets it be unpacked: a wrong passphrase and
 * a changed byte read the same.
 */
export async function unpackArchive(file: string, dir: string, passphrase?: string): Promise<void> {
  let source = file;
  if (await isEncrypted(file)) {
    if (!passphrase) throw new ArchiveRefused('the archive is encrypted: give its passphrase with --passphrase-file');
    source = `${dir}.tar.gz`;
    await decryptArchive(file, source, passphrase);
  }
  try {
    await tar.x({
      file: source,
      cwd: dir,
      strict: true,
      // Plain files and folders only: a link or device in an archive is never ours.
      filter: (_path, entry) => ('type' in entry ? entry.type === 'File' || entry.type === 'Directory' : true),
    });
  } catch (error) {
    throw new ArchiveRefused(`the archive cannot be read (${(error as Error).message}): damaged, cut short or not a backup`);
  } finally {
    if (source !== file) await rm(source, { force: true });
  }
}

async function decryptArchive(file: string, target: string, passphrase: string): Promise<void> {
  const { size } = await stat(file);
  const header = MAGIC.length + SALT_BYTES + NONCE_BYTES;
  if (size < header + TAG_BYTES) throw new ArchiveRefused('the encrypted archive is cut short');
  const handle = await open(file, 'r');
  const head = Buffer.alloc(header);
  const tag = Buffer.alloc(TAG_BYTES);
  try {
    await handle.read(head, 0, header, 0);
    await handle.read(tag, 0, TAG_BYTES, size - TAG_BYTES);
  } finally {
    await handle.close();
  }
  const salt = head.subarray(MAGIC.length, MAGIC.length + SALT_BYTES);
  const nonce = head.subarray(MAGIC.length + SALT_BYTES);
  const decipher = createDecipheriv('aes-256-gcm', await scrypt(passphrase, salt, 32, SCRYPT), nonce);
  decipher.setAuthTag(tag);
  try {
    await pipeline(
      createReadStream(file, { start: header, end: size - TAG_BYTES - 1 }),
      decipher,
      createWriteStream(target, { mode: 0o600 }),
    );
  } catch {
    await rm(target, { force: true });
    throw new ArchiveRefused('the archive does not open with this passphrase, or it was changed since it was made');
  }
}

/**
 * Every entry the manifest names is present with its digest, and nothing else is there: checked
 * before anything is written.
 */
export async function verifyEntries(dir: string, digests: Record<string, string>): Promise<void> {
  const present = (await listEntries(dir)).filter((entry) => entry !== MANIFEST_ENTRY);
  const named = Object.keys(digests);
  const extra = present.filter((entry) => !(entry in digests));
  if (extra.length)
    throw new ArchiveRefused(`the archive holds entries its manifest does not name: ${extra.slice(0, 3).join(', ')}`);
  for (const entry of named) {
    if (!present.includes(entry)) throw new ArchiveRefused(`the archive lacks ${entry}, which its manifest names`);
    if ((await fileDigest(join(dir, entry))) !== digests[entry])
      throw new ArchiveRefused(`${entry} does not match its SHA-256 in the manifest: the archive was changed or damaged`);
  }
}

export async function readManifestText(dir: string): Promise<string> {
  try {
    return await readFile(join(dir, MANIFEST_ENTRY), 'utf8');
  } catch {
    throw new ArchiveRefused('the archive has no manifest.json: not a backup of this service');
  }
}
