import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { existingEncryptionKey } from '../core/crypto/encryption-key';
import { EmbeddedPostgres } from '../database/embedded-postgres';
import { BackupOptions, BackupResult } from './backup-result';
import { Sql, sqlOn } from '../database/sql';
import { writeBackup } from './write-backup';

/**
 * Backs up the running service's database into one archive (decisions §24) while it keeps serving.
 * On PostgreSQL the snapshot is a transaction on one connection of the pool, and a second one reads
 * the login log after it (LoginLogAfterSnapshot); the embedded database is one session, so the backup
 * reads a copy of it in memory instead (EmbeddedPostgres.snapshot), where nothing writes meanwhile.
 */
@Injectable()
export class BackupMaker {
  constructor(
    private readonly dataSource: DataSource,
    private readonly embedded: EmbeddedPostgres,
    private readonly config: AppConfig,
  ) {}

  async make(file: string, options: BackupOptions = {}): Promise<BackupResult> {
    const copy = await this.embedded.snapshot();
    if (copy) {
      try {
        return await this.write(
          async (text, params) => (await copy.query<Record<string, unknown>>(text, params)).rows,
          file,
          options,
        );
      } finally {
        await copy.close();
      }
    }
    const runner = this.dataSource.createQueryRunner('master');
    const beside = this.dataSource.createQueryRunner('master');
    try {
      return await this.write(sqlOn(runner), file, options, sqlOn(beside));
    } finally {
      await runner.release();
      await beside.release();
    }
  }

  private write(sql: Sql, file: string, options: BackupOptions, besideSql?: Sql): Promise<BackupResult> {
    const source = { sql, besideSql, filesDir: this.config.filesDir, key: existingEncryptionKey(this.config) };
    return writeBackup(source, file, options);
  }
}
