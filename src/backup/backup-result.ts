/** What a finished backup is: the archive's path, size and digest, and what it holds. */
export interface BackupResult {
  /** Absolute path of the archive written. */
  file: string;
  bytes: number;
  /** SHA-256 of the whole archive file, hex. */
  sha256: string;
  /** ISO time the snapshot was taken. */
  created_at: string;
  /** The last migration applied in the database backed up. */
  schema: string;
  /** Rows per table. */
  tables: Record<string, number>;
}

export interface BackupOptions {
  /** Leaves the request and login log out (its table is restored empty). */
  withoutLogs?: boolean;
  /** Encrypts the whole archive with a key derived from this passphrase. */
  passphrase?: string;
  /** Puts the encryption key inside (only with a passphrase). */
  includeKey?: boolean;
}
