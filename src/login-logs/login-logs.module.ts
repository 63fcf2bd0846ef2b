import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ProjectsModule } from '../projects/projects.module';
import { LoginLog } from './login-log.entity';
import { LoginLogsController } from './login-logs.controller';
import { LoginLogsService } from './login-logs.service';
import { LogMaintenanceService } from './log-maintenance.service';

@Module({
  imports: [TypeOrmModule.forFeature([LoginLog]), ProjectsModule],
  controllers: [LoginLogsController],
  providers: [LoginLogsService, LogMaintenanceService],
  exports: [LoginLogsService, TypeOrmModule],
})
export class LoginLogsModule {}
