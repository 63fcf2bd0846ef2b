import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { BackupMaker } from './backup-maker';
import { BackupSchedule } from './backup-schedule';
import { BackupScheduleState } from './backup-schedule-state.entity';
import { Backup } from './backup.entity';
import { BackupsController } from './backups.controller';
import { BackupsRepository } from './backups.repository';
import { BackupsService } from './backups.service';
import { UpgradeBackupNotes } from './upgrade-backup-notes';

/** Backups of the running service: the admin API, the schedule and the table listing them (decisions §24). */
@Module({
  imports: [TypeOrmModule.forFeature([Backup, BackupScheduleState])],
  controllers: [BackupsController],
  providers: [BackupMaker, BackupsRepository, BackupsService, BackupSchedule, UpgradeBackupNotes],
  exports: [BackupsService],
})
export class BackupsModule {}
