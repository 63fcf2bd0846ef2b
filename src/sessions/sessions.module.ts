import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ProjectsModule } from '../projects/projects.module';
import { LiveSessions } from './live-sessions';
import { Session } from './session.entity';
import { SessionsAdminController } from './sessions-admin.controller';
import { SessionsService } from './sessions.service';

@Module({
  imports: [TypeOrmModule.forFeature([Session]), ProjectsModule],
  controllers: [SessionsAdminController],
  providers: [SessionsService, LiveSessions],
  exports: [SessionsService, LiveSessions],
})
export class SessionsModule {}
