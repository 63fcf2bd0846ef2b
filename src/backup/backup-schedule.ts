import { BeforeApplicationShutdown, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { JsonLogger } from '../core/logging/json-logger';
import { BackupView } from './backup.view';
import { BackupsRepository } from './backups.repository';
import { BackupsService } from './backups.service';

/** The first look after a start: soon, but after the start's own work and its first logins. */
export const FIRST_CHECK_MS = 60_000;
/** Later looks. The turn's time is kept in the database, so a restart never moves the schedule. */
export const CHECK_EVERY_MS = 10 * 60_000;

export interface ScheduledPass {
  backup: BackupView;
  /** Scheduled archives deleted beyond BACKUP_KEEP. */
  deleted: string[];
}

/**
 * Scheduled backups (decisions §24): every BACKUP_INTERVAL_HOURS (0: none) one instance of the
 * deployment takes one and keeps the newest BACKUP_KEEP scheduled ones. Each instance looks shortly
 * after it starts and then every ten minutes; the look claims the turn in the shared database
 * (BackupsRepository.claimScheduledTurn), so among instances started together, or a restarted one,
 * exactly one takes each backup. A failed backup gives its turn back: the next look tries again.
 */
@Injectable()
export class BackupSchedule implements OnApplicationBootstrap, BeforeApplicationShutdown, OnApplicationShutdown {
  private first?: NodeJS.Timeout;
  private timer?: NodeJS.Timeout;
  private running?: Promise<ScheduledPass | null>;

  constructor(
    private readonly backups: BackupsService,
    private readonly repository: BackupsRepository,
    private readonly config: AppConfig,
    private readonly logger: JsonLogger,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.BACKUP_INTERVAL_HOURS === 0) return;
    const look = () => void this.run();
    this.first = setTimeout(look, FIRST_CHECK_MS).unref();
    this.timer = setInterval(look, CHECK_EVERY_MS).unref();
  }

  /** A backup under way finishes before the database closes (main.ts bounds the whole shutdown). */
  async beforeApplicationShutdown(): Promise<void> {
    this.stop();
    await this.running;
  }

  onApplicationShutdown(): void {
    this.stop();
  }

  /** One look: the backup taken, or null when none was due, another instance took it, or it failed (logged). */
  run(intervalHours = this.config.BACKUP_INTERVAL_HOURS): Promise<ScheduledPass | null> {
    this.running ??= this.pass(intervalHours).finally(() => (this.running = undefined));
    return this.running;
  }

  private async pass(intervalHours: number): Promise<ScheduledPass | null> {
    let turn: Date | null = null;
    let backup: BackupView;
    try {
      turn = await this.repository.claimScheduledTurn(intervalHours * 3600);
      if (!turn) return null;
      backup = await this.backups.make({ trigger: 'scheduled', createdBy: null });
    } catch (error) {
      this.logger.entry('error', 'scheduled backup failed', { error: String(error) });
      if (turn) await this.repository.releaseScheduledTurn(turn).catch(() => undefined);
      return null;
    }
    let deleted: string[] = [];
    try {
      deleted = await this.backups.pruneScheduled();
      if (deleted.length)
        this.logger.entry('info', 'scheduled backups deleted', { files: deleted, keep: this.config.BACKUP_KEEP });
    } catch (error) {
      // The backup stands; the next one deletes what this one could not.
      this.logger.entry('error', 'old scheduled backups not deleted', { error: String(error) });
    }
    return { backup, deleted };
  }

  private stop(): void {
    clearTimeout(this.first);
    clearInterval(this.timer);
  }
}
