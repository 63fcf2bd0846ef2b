import { Module } from '@nestjs/common';
import { AccessModule } from '../../access/access.module';
import { AnnouncementsModule } from '../../announcements/announcements.module';
import { CardsModule } from '../../cards/cards.module';
import { ProjectsModule } from '../../projects/projects.module';
import { RemoteVariablesModule } from '../../remote-variables/remote-variables.module';
import { VersionsModule } from '../../versions/versions.module';
import { LegacyInfoController } from './legacy-info.controller';
import { LegacyInfoService } from './legacy-info.service';

/**
 * The read-only legacy actions (announcement, latest version, app_config, app_profile) and the
 * older routes `/api/announcement` and `/api/latest_version`; the aggregate entry calls the service.
 */
@Module({
  imports: [AccessModule, AnnouncementsModule, VersionsModule, CardsModule, RemoteVariablesModule, ProjectsModule],
  controllers: [LegacyInfoController],
  providers: [LegacyInfoService],
  exports: [LegacyInfoService],
})
export class LegacyInfoModule {}
