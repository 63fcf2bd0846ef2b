import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { Readable } from 'node:stream';
import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { ErrorCode } from '../core/errors/error-code';
import { ServiceError } from '../core/errors/service-error';
import { JsonLogger } from '../core/logging/json-logger';
import { Backup, BackupTrigger } from './backup.entity';
import { BackupMaker } from './backup-maker';
import { BackupView, toBackupView } from './backup.view';
import { BackupsRepository } from './backups.repository';
import { backupFileName } from './backup-file-name';

export interface MakeBackupInput {
  trigger: BackupTrigger;
  /** The admin account that asked (null: the schedule). */
  createdBy: string | null;
  withoutLogs?: boolean;
}

export interface BackupDownload {
  file: string;
  bytes: number;
  stream: Readable;
}

/**
 * The running service's backups (decisions §24): each is an archive in BACKUP_DIR, written by
 * BackupMaker, and a row that lists it. A backup that fails leaves neither: the maker writes under a
 * temporary name, and the archive is removed again when its row cannot be written.
 */
@Injectable()
export class BackupsService {
  constructor(
    private readonly maker: BackupMaker,
    private readonly backups: BackupsRepository,
    private readonly config: AppConfig,
    private readonly logger: JsonLogger,
  ) {}

  async make(input: MakeBackupInput): Promise<BackupView> {
    const started = Date.now();
    const dir = this.config.backupDir;
    await mkdir(dir, { recursive: true });
    const id = randomUUID();
    const file = backupFileName(id, input.trigger, new Date(started));
    const path = join(dir, file);
    let row: Backup;
    try {
      const made = await this.maker.make(path, { withoutLogs: input.withoutLogs === true });
      row = await this.backups.insert({
        id,
        file,
        bytes: made.bytes,
        sha256: made.sha256,
        schema: made.schema,
        trigger: input.trigger,
        createdBy: input.createdBy,
        createdAt: new Date(made.created_at),
      });
    } catch (error) {
      await rm(path, { force: true }).catch(() => undefined);
      throw error;
    }
    const view = toBackupView(row);
    this.logger.entry('info', 'backup taken', {
      backup_id: view.id,
      file: view.file,
      bytes: view.bytes,
      sha256: view.sha256,
      schema: view.schema,
      trigger: view.trigger,
      without_logs: input.withoutLogs === true,
      duration_ms: Date.now() - started,
    });
    return view;
  }

  async list(): Promise<{ items: BackupView[]; total: number }> {
    const items = (await this.backups.list()).map(toBackupView);
    return { items, total: items.length };
  }

  /** The archive's bytes; an id without a row, or whose file is gone from BACKUP_DIR, is not found. */
  async openDownload(id: string): Promise<BackupDownload> {
    const row = await this.found(id);
    const path = this.pathOf(row);
    const bytes = await stat(path).then(
      (s) => s.size,
      (error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') throw new ServiceError(ErrorCode.NOT_FOUND);
        throw error;
      },
    );
    return { file: row.file, bytes, stream: createReadStream(path) };
  }

  /** Deletes the archive, then its row (a file that cannot be deleted keeps its row, to try again). */
  async remove(id: string): Promise<void> {
    const row = await this.found(id);
    await rm(this.pathOf(row), { force: true });
    if (!(await this.backups.delete(row.id))) throw new ServiceError(ErrorCode.NOT_FOUND);
  }

  /** Deletes the scheduled backups beyond the newest `keep` (made by hand or before an upgrade: kept). */
  async pruneScheduled(keep = this.config.BACKUP_KEEP): Promise<string[]> {
    const deleted: string[] = [];
    for (const row of await this.backups.scheduledBeyond(keep)) {
      await rm(this.pathOf(row), { force: true });
      if (await this.backups.delete(row.id)) deleted.push(row.file);
    }
    return deleted;
  }

  private async found(id: string): Promise<Backup> {
    const row = await this.backups.find(id);
    if (!row) throw new ServiceError(ErrorCode.NOT_FOUND);
    return row;
  }

  /** `basename`: a row, which a restore may bring from elsewhere, never names a path outside BACKUP_DIR. */
  private pathOf(row: Backup): string {
    return join(this.config.backupDir, basename(row.file));
  }
}
