import { Module } from '@nestjs/common';
import { AccessModule } from '../access/access.module';
import { ProjectsModule } from '../projects/projects.module';
import { SessionsModule } from '../sessions/sessions.module';
import { UsageController } from './usage.controller';
import { CardsModule } from '../cards/cards.module';

/** `GET /admin/v1/projects/:id/usage`: the Overview's live sessions and quota use. */
@Module({
  imports: [ProjectsModule, AccessModule, SessionsModule, CardsModule],
  controllers: [UsageController],
})
export class UsageModule {}
