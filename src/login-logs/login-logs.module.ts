import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ProjectsModule } from '../projects/projects.module';
import { LoginCountZone, LoginDailyCount, LoginDroppedCount } from './login-counts.entity';
import { LoginLog } from './login-log.entity';
import { LoginLogsController } from './login-logs.controller';
import { LoginLogsService } from './login-logs.service';
import { LogMaintenanceService } from './log-maintenance.service';
import { RequestLogController } from './request-log.controller';
import { RequestLogRepository } from './request-log.repository';
import { RequestLogService } from './request-log.service';
import { RequestLogWriter } from './request-log-writer';

@Module({
  imports: [TypeOrmModule.forFeature([LoginLog, LoginDailyCount, LoginDroppedCount, LoginCountZone]), ProjectsModule],
  controllers: [LoginLogsController, RequestLogController],
  providers: [LoginLogsService, LogMaintenanceService, RequestLogService, RequestLogRepository, RequestLogWriter],
  exports: [LoginLogsService, TypeOrmModule],
})
export class LoginLogsModule {}
