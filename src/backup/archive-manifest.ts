import { createHmac } from 'node:crypto';

/** The archive's table of contents (decisions §24): what it holds, each entry's digest, and its schema. */
export interface ArchiveManifest {
  format: 'cardkey-backup';
  version: 1;
  created_at: string;
  /** The last migration applied in the database it was taken from. */
  schema: string;
  /** Rows per table. */
  tables: Record<string, number>;
  /** SHA-256 (hex) of every other entry, by its path in the archive. */
  sha256: Record<string, string>;
  /**
   * Names the encryption key the archive's secrets are stored under without revealing it, so that a
   * restore under another key is refused before it writes rows nobody can read.
   */
  key_check: string | null;
  /** Whether the request and login log was left out (`--without-logs`). */
  without_logs: boolean;
}

export const MANIFEST_ENTRY = 'manifest.json';
export const TABLES_FOLDER = 'tables';
export const FILES_FOLDER = 'files';
/** The encryption key, only ever inside an archive encrypted as a whole. */
export const KEY_ENTRY = 'key/encryption.key';
/** The tables `--without-logs` leaves out: the request and login log. */
export const LOG_TABLES = ['login_logs'];

/**
 * A table's entry: its rows gzip'd as they are read, so that the work folder and the disk beside
 * the logins see a fraction of the bytes. Archives from before (the upgrade fixtures) hold plain
 * `.jsonl` entries, which a restore still reads (`tableEntries`).
 */
export function tableEntry(table: string): string {
  return `${TABLES_FOLDER}/${table}.jsonl.gz`;
}

/** The plain entry name archives made before the tables were gzip'd use. */
export function plainTableEntry(table: string): string {
  return `${TABLES_FOLDER}/${table}.jsonl`;
}

export function keyCheck(key: Buffer): string {
  return createHmac('sha256', key).update('cardkey-backup key check').digest('hex').slice(0, 16);
}

/** Why an archive cannot be restored: the command prints the message and exits 1. */
export class ArchiveRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ArchiveRefused';
  }
}

/** Checks the manifest's shape and that this release knows its schema. */
export function parseManifest(text: string, knownMigrations: string[]): ArchiveManifest {
  let manifest: Partial<ArchiveManifest>;
  try {
    manifest = JSON.parse(text) as Partial<ArchiveManifest>;
  } catch {
    throw new ArchiveRefused('manifest.json is not JSON: not a backup archive, or a damaged one');
  }
  if (manifest.format !== 'cardkey-backup') throw new ArchiveRefused('not a backup archive of this service (manifest format)');
  if (manifest.version !== 1)
    throw new ArchiveRefused(`archive format version ${String(manifest.version)} is not known to this release`);
  if (typeof manifest.schema !== 'string' || typeof manifest.sha256 !== 'object' || typeof manifest.tables !== 'object')
    throw new ArchiveRefused('manifest.json lacks schema, tables or sha256');
  if (!knownMigrations.includes(manifest.schema))
    throw new ArchiveRefused(
      `the archive's schema ${manifest.schema} is newer than this release knows: restore it with that release or a later one`,
    );
  return manifest as ArchiveManifest;
}
