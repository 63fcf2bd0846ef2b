import { Module } from '@nestjs/common';
import { AccessModule } from '../access/access.module';
import { ProjectsModule } from '../projects/projects.module';
import { SessionsModule } from '../sessions/sessions.module';
import { UsageController } from './usage.controller';

/** `GET /admin/v1/projects/:id/usage`: the Overview's live sessions and quota use. */
@Module({
  imports: [ProjectsModule, AccessModule, SessionsModule],
  controllers: [UsageController],
})
export class UsageModule {}
