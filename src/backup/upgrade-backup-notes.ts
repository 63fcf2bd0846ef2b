import { readdir, readFile, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { JsonLogger } from '../core/logging/json-logger';
import { BackupsRepository } from './backups.repository';
import { UPGRADE_NOTE_SUFFIX, UpgradeNote } from './upgrade-backup';

/** Lists the backups a start took before its migrations (upgrade-backup.ts) once the app is up. */
@Injectable()
export class UpgradeBackupNotes implements OnApplicationBootstrap {
  constructor(
    private readonly backups: BackupsRepository,
    private readonly config: AppConfig,
    private readonly logger: JsonLogger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const names = await readdir(this.config.backupDir).catch(() => [] as string[]);
    for (const name of names.filter((entry) => entry.endsWith(UPGRADE_NOTE_SUFFIX))) {
      const path = join(this.config.backupDir, name);
      try {
        const text = await readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
          if (error.code === 'ENOENT') return null; // another worker listed it and removed the note
          throw error;
        });
        if (text === null) continue;
        const note = JSON.parse(text) as UpgradeNote;
        if (!(await this.backups.find(note.id))) {
          const row = {
            id: note.id,
            file: basename(note.file),
            bytes: note.bytes,
            sha256: note.sha256,
            schema: note.schema,
            trigger: 'upgrade' as const,
            createdBy: null,
            createdAt: new Date(note.created_at),
          };
          // Cluster workers start together: another may have listed it between the look and the insert.
          await this.backups.insert(row).catch(async (error: unknown) => {
            if (!(await this.backups.find(note.id))) throw error;
          });
        }
        await rm(path, { force: true });
      } catch (error) {
        // The archive itself is safe in BACKUP_DIR; only its listing waits for the next start.
        this.logger.entry('warn', 'backup before the migrations not listed', { note: name, reason: (error as Error).message });
      }
    }
  }
}
