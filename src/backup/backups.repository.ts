import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { BackupScheduleState } from './backup-schedule-state.entity';
import { Backup } from './backup.entity';

/** The `backups` table and the one-row `backup_schedule` beside it: every query the backups module makes. */
@Injectable()
export class BackupsRepository {
  constructor(
    @InjectRepository(Backup) private readonly rows: Repository<Backup>,
    @InjectRepository(BackupScheduleState) private readonly schedule: Repository<BackupScheduleState>,
  ) {}

  insert(row: Backup): Promise<Backup> {
    return this.rows.save(this.rows.create(row));
  }

  /** Every backup, newest first (a deployment keeps tens, not thousands: no paging). */
  list(): Promise<Backup[]> {
    return this.rows.find({ order: { createdAt: 'DESC', id: 'DESC' } });
  }

  find(id: string): Promise<Backup | null> {
    return this.rows.findOneBy({ id });
  }

  /** Whether a row was deleted (false: another request deleted it first). */
  async delete(id: string): Promise<boolean> {
    const { affected } = await this.rows.delete({ id });
    return (affected ?? 0) > 0;
  }

  /** The scheduled backups beyond the newest `keep` ones, oldest last. */
  scheduledBeyond(keep: number): Promise<Backup[]> {
    return this.rows.find({ where: { trigger: 'scheduled' }, order: { createdAt: 'DESC', id: 'DESC' }, skip: keep });
  }

  /**
   * Claims the next scheduled backup for this instance: true for exactly one of the instances that
   * ask once the last scheduled start is `intervalSeconds` old. One conditional UPDATE … RETURNING
   * is the claim (in milliseconds, so that the JavaScript Date it answers names it exactly). Two
   * instances updating the one row at once queue on its lock, and the second re-reads the first's
   * new start time, fails the condition and gets no row.
   */
  async claimScheduledTurn(intervalSeconds: number): Promise<Date | null> {
    const { raw } = await this.schedule
      .createQueryBuilder()
      .update()
      .set({ lastStartedAt: () => "date_trunc('milliseconds', now())" })
      .where('id = 1 AND (last_started_at IS NULL OR last_started_at <= now() - make_interval(secs => :interval))', {
        interval: intervalSeconds,
      })
      .returning(['lastStartedAt'])
      .execute();
    const rows = raw as Array<{ last_started_at: Date | string }>;
    return rows.length ? new Date(rows[0].last_started_at) : null;
  }

  /**
   * Gives a failed turn back, so that the next check tries again rather than one interval later:
   * only if no other instance claimed a newer turn meanwhile (the claim's time, to the millisecond).
   */
  async releaseScheduledTurn(startedAt: Date): Promise<void> {
    await this.schedule.update({ id: 1, lastStartedAt: startedAt }, { lastStartedAt: null });
  }

  /** When the last scheduled backup was started (null: never, or the last one failed). */
  async lastScheduledStart(): Promise<Date | null> {
    return (await this.schedule.findOneBy({ id: 1 }))?.lastStartedAt ?? null;
  }

  /** Sets the last scheduled start (tests, and an operator who wants the next one now: null). */
  async setLastScheduledStart(at: Date | null): Promise<void> {
    await this.schedule.update({ id: 1 }, { lastStartedAt: at });
  }
}
