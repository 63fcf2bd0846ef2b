import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CardSessions } from '../cards/card-sessions';
import { ProjectsModule } from '../projects/projects.module';
import { LiveSessions } from './live-sessions';
import { Session } from './session.entity';
import { SessionsAdminController } from './sessions-admin.controller';
import { SessionRevocations } from './session-revocations';
import { SessionsService } from './sessions.service';

/** Global so that CardsModule gets CardSessions without importing sessions (cards sit below sessions). */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([Session]), ProjectsModule],
  controllers: [SessionsAdminController],
  providers: [SessionsService, SessionRevocations, LiveSessions, { provide: CardSessions, useExisting: SessionRevocations }],
  exports: [SessionsService, SessionRevocations, LiveSessions, CardSessions],
})
export class SessionsModule {}
